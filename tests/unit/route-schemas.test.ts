// The registry's input schemas: path params that match the path, and the upload's form fields.
import { describe, expect, it } from "vitest";
import { formFields } from "@/lib/docs/request-fields";
import type { ReceivedFile } from "@/lib/files/received-file";
import { PURPOSE_MAX_LENGTH, uploadFormSchema } from "@/lib/public-api/file-schemas";
import { pathParamNames, publicRoutes } from "@/lib/public-api/routes";

const file: ReceivedFile = {
  path: "/tmp/x.partial",
  filename: "notes.txt",
  mimeType: "text/plain",
  bytes: 5,
  truncated: false,
};

function refusal(fields: Record<string, unknown>) {
  const parsed = uploadFormSchema.safeParse(fields);
  return parsed.success ? undefined : parsed.error.issues[0];
}

describe("path params", () => {
  it.each(publicRoutes.map((route) => [route.name, route] as const))(
    "%s declares exactly the [param] names of its path",
    (_name, route) => {
      const declared = "params" in route ? Object.keys(route.params.shape) : [];
      expect(declared).toEqual(pathParamNames(route.path));
    },
  );
});

describe("the upload form", () => {
  it("is declared by upload_file only", () => {
    expect(publicRoutes.filter((route) => "form" in route).map((route) => route.name)).toEqual(["upload_file"]);
  });

  it("takes a file and an optional purpose", () => {
    expect(uploadFormSchema.parse({ file })).toEqual({ file });
    const purpose = "p".repeat(PURPOSE_MAX_LENGTH);
    expect(uploadFormSchema.parse({ file, purpose, other: "dropped" })).toEqual({ file, purpose });
  });

  it.each([
    ["an over-long purpose", "p".repeat(PURPOSE_MAX_LENGTH + 1)],
    ["a control character", "notes\u0007"],
    ["a text-direction override", "invoice\u202Egpj.exe"],
  ])("refuses a purpose with %s, naming the field", (_what, purpose) => {
    expect(refusal({ file, purpose })).toMatchObject({
      path: ["purpose"],
      message: expect.stringMatching(/^purpose must be/),
    });
  });

  it("refuses a missing file and an empty one, naming the field", () => {
    expect(refusal({ purpose: "x" })).toMatchObject({
      path: ["file"],
      message: 'Send the file in a multipart field named "file".',
    });
    expect(refusal({ file: "not a file" })).toMatchObject({ path: ["file"] });
    expect(refusal({ file: { ...file, bytes: 0 } })).toMatchObject({ path: ["file"], message: "The file is empty." });
  });

  it("gives the docs' table its rows", () => {
    const upload = publicRoutes.find((route) => route.name === "upload_file")!;
    expect(formFields(upload)).toEqual([
      { name: "file", type: "file", required: true, notes: uploadFormSchema.shape.file.description },
      {
        name: "purpose",
        type: "string",
        required: false,
        notes: `${uploadFormSchema.shape.purpose.description}; at most ${PURPOSE_MAX_LENGTH} characters`,
      },
    ]);
  });
});
