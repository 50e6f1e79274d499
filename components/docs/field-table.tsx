import { Table, Td, Th, THead } from "@/components/ui/table";
import type { Field } from "@/lib/docs/request-fields";

export function FieldTable({ caption, fields }: { caption: string; fields: Field[] }) {
  return (
    <div className="my-4">
      <h3>{caption}</h3>
      <Table caption={caption}>
        <THead>
          <tr>
            <Th>Name</Th>
            <Th>Type</Th>
            <Th>Required</Th>
            <Th>Notes</Th>
          </tr>
        </THead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.name}>
              <Td>
                <code>{field.name}</code>
              </Td>
              <Td>
                <code className="break-words">{field.type}</code>
              </Td>
              <Td>{field.required ? "yes" : "no"}</Td>
              <Td>{field.notes}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
