import { can, PERMISSIONS, ROLES, type Permission } from "@/lib/teams/roles";

/**
 * What each role may do, drawn from the roles table (lib/teams/roles.ts): the
 * same table the server checks, so the docs and the members page cannot say
 * otherwise.
 */
export function RoleMatrix() {
  return (
    // Focusable, so a keyboard can scroll it when a phone's width is too narrow for the five columns.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="What each role may do">
      <table className="min-w-full text-left text-sm" data-testid="role-matrix">
        <caption className="sr-only">What each role may do</caption>
        <thead>
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            <th scope="col" className="py-2 pr-4 font-medium">
              Permission
            </th>
            {ROLES.map((role) => (
              <th key={role} scope="col" className="px-2 py-2 font-medium">
                {role}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {(Object.entries(PERMISSIONS) as [Permission, string][]).map(([permission, text]) => (
            <tr key={permission}>
              <th scope="row" className="py-2 pr-4 font-normal">
                {text}
              </th>
              {ROLES.map((role) => (
                <td key={role} className="px-2 py-2">
                  {can(role, permission) ? "Yes" : "No"}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
