// Every server action goes through the one wrapper (lib/web/define-action.ts),
// so none can forget the API-key refusal, the session guard, the form's
// schema or the fresh sign-in: each export of each "use server" module wears
// the wrapper's mark, and only the documented public ones skip the session.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DEFINED_ACTION } from "@/lib/web/define-action";
import { request } from "../helpers/next-request";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const root = path.resolve(import.meta.dirname, "..", "..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === "generated") return [];
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

const actionModules = ["lib", "app", "components"]
  .flatMap((dir) => sources(path.join(root, dir)))
  .filter((file) => /^\s*["']use server["'];/.test(readFileSync(file, "utf8")));

/** Actions anyone may call: they take no session (each still refuses a request that carries an API key). */
const PUBLIC_ACTIONS = [
  "signInAction",
  "signUpAction",
  "confirmSignUpAction",
  "requestPasswordResetAction",
  "resetPasswordAction",
  "twoFactorSignInAction",
  "reportKeyAction",
  // An invitation's link, for an address with no account yet: the link's token is the credential.
  "signUpFromInvitationAction",
];

describe("the server actions", () => {
  it("are each made by defineAction, and only the public ones take no session", async () => {
    // A control: the scan finds the modules it must.
    expect(actionModules.map((file) => path.relative(root, file))).toEqual(
      expect.arrayContaining(["lib/web/actions/keys.ts", "lib/web/actions/sign-in.ts", "lib/web/actions/sessions.ts"]),
    );
    const access: Record<string, unknown> = {};
    for (const file of actionModules) {
      const exports = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        expect(typeof value, `${path.relative(root, file)}: ${name}`).toBe("function");
        access[name] = (value as { [DEFINED_ACTION]?: unknown })[DEFINED_ACTION];
      }
    }
    expect(Object.keys(access).length).toBeGreaterThan(20);
    const unwrapped = Object.entries(access).filter(([, mark]) => mark === undefined);
    expect(unwrapped.map(([name]) => name)).toEqual([]);
    const publicOnes = Object.entries(access).filter(([, mark]) => mark === "public");
    expect(publicOnes.map(([name]) => name).sort()).toEqual([...PUBLIC_ACTIONS].sort());
  });

  it("refuse a request that carries an API key, public ones too, before reading the form", async () => {
    const { signInAction } = await import("@/lib/web/actions/sign-in");
    const { renameKeyAction } = await import("@/lib/web/actions/keys");
    request.headers = new Headers({ authorization: "Bearer sk_dev_not-even-checked" });
    const form = new FormData();
    form.set("email", "someone@example.com");
    form.set("password", "correct horse battery staple");
    for (const action of [signInAction, renameKeyAction] as ((p: null, f: FormData) => Promise<unknown>)[]) {
      expect(await action(null, form)).toMatchObject({ ok: false, error: expect.stringMatching(/API keys work only/) });
    }
    // The password never comes back into the form; the email does.
    expect(await signInAction(null, form)).toMatchObject({ values: { email: "someone@example.com" } });
    expect(JSON.stringify(await signInAction(null, form))).not.toContain("correct horse");
    request.headers = new Headers();
  });
});
