// Every page and route handler either calls the session guard or is one of
// the public pages listed here, which rely on proxy.ts alone to refuse keys.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");
const appDir = path.join(root, "app");
const libDir = path.join(root, "lib");
// requireTeamPage (lib/web/team-guard.ts) runs requirePageSession, then the membership check.
// downloadMember (lib/web/download-member.ts) is requireApiSession and the team's membership: checked below.
const SESSION_GUARD = /await (requireApiSession|downloadMember)\(request\b/;
const GUARDS = /requirePageSession|requireTeamPage|requireActionSession|requireApiSession|downloadMember|refuseApiKey/;

const PUBLIC_WITHOUT_GUARD = [
  "(auth)/forgot-password/page.tsx",
  // An invitation's link: the token is the credential; a session, when there is one, must be the invited address's.
  "(auth)/invitations/[token]/page.tsx",
  "(auth)/report-a-key/page.tsx",
  "(auth)/reset-password/page.tsx",
  "(auth)/sign-in/page.tsx",
  "(auth)/sign-in/two-factor/page.tsx",
  "(auth)/sign-up/check-inbox/page.tsx",
  "(auth)/sign-up/confirm/page.tsx",
  "(auth)/sign-up/page.tsx",
  "(docs)/docs/authentication/page.tsx",
  "(docs)/docs/errors/page.tsx",
  "(docs)/docs/keeping-keys-safe/page.tsx",
  "(docs)/docs/limits-and-versioning/page.tsx",
  "(docs)/docs/managing-keys/page.tsx",
  "(docs)/docs/page.tsx",
  "(docs)/docs/restricted-keys/page.tsx",
  "(docs)/docs/routes/[route]/page.tsx",
  "(docs)/docs/routes/page.tsx",
  "(docs)/docs/search-index.json/route.ts",
  "(docs)/docs/sessions-and-keys/page.tsx",
  "(docs)/docs/teams-and-roles/page.tsx",
  "(marketing)/page.tsx",
  "healthz/route.ts",
  "readyz/route.ts",
].sort();

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

const entries = files(appDir)
  .map((file) => path.relative(appDir, file))
  .filter((file) => /(^|\/)(page\.tsx|route\.ts)$/.test(file))
  .filter((file) => !/^api\/v1(beta)?\//.test(file));

// Server actions live beside their feature in lib/: every module that says
// "use server" is one, whatever its name.
const actionModules = files(libDir)
  .filter((file) => !file.includes(`${path.sep}generated${path.sep}`) && /\.tsx?$/.test(file))
  .filter((file) => /^\s*["']use server["']/.test(readFileSync(file, "utf8")))
  .map((file) => path.relative(root, file));

describe("the session guard's coverage", () => {
  it("finds the pages, handlers and actions to check", () => {
    expect(entries.length).toBeGreaterThanOrEqual(8);
    expect(actionModules).toEqual(
      expect.arrayContaining([
        "lib/web/actions/password.ts",
        "lib/web/actions/sessions.ts",
        "lib/web/actions/sign-in.ts",
        "lib/web/actions/sign-up.ts",
        "lib/web/actions/keys.ts",
      ]),
    );
    // One folder holds the server actions, the web app's, so a reader knows where to look.
    for (const file of actionModules) expect(file).toMatch(/^lib\/web\/actions\/[\w-]+\.ts$/);
  });

  it("has exactly two routes that take neither a key nor a session, the documented exceptions", () => {
    // Everything else either needs a browser session or shows the same
    // content to anyone (docs, sign-in): these two act on what an anonymous
    // caller sends. The webhook is authenticated by its signature; the report
    // page can only take a key away (docs/security.md, "Sessions and keys never mix").
    const webhook = readFileSync(path.join(appDir, "webhooks/secret-scanning/route.ts"), "utf8");
    expect(webhook).toMatch(/refuseApiKey\(request\.headers\)/);
    expect(webhook).toMatch(/signedByGitHub\(body, request\.headers\)/);
    expect(webhook).not.toMatch(/requireApiSession|requirePageSession/);
    // The report form's action is public: the action wrapper refuses a key for it, and runs no session guard.
    const report = readFileSync(path.join(libDir, "web/actions/report-a-key.ts"), "utf8");
    expect(report).toMatch(/export const reportKeyAction = defineAction\(\{\n\s*access: "public",/);
    const wrapper = readFileSync(path.join(libDir, "web/define-action.ts"), "utf8");
    expect(wrapper).toMatch(/if \(carriesApiKey\(requestHeaders\)\) return failure\(API_KEY_REFUSED_MESSAGE/);
    // No other handler outside the public API goes without a session but the read-only ones.
    const handlers = entries.filter((file) => file.endsWith("route.ts"));
    const withoutSession = handlers.filter(
      (file) => !SESSION_GUARD.test(readFileSync(path.join(appDir, file), "utf8")),
    );
    expect(withoutSession.sort()).toEqual(
      [
        "(docs)/docs/search-index.json/route.ts",
        "api/auth/[...nextauth]/route.ts",
        "healthz/route.ts",
        "openapi.json/route.ts",
        "readyz/route.ts",
        "webhooks/secret-scanning/route.ts",
      ].sort(),
    );
  });

  it("leaves only the listed public pages to the proxy", () => {
    const unguarded = entries.filter((file) => !GUARDS.test(readFileSync(path.join(appDir, file), "utf8")));
    expect(unguarded.sort()).toEqual(PUBLIC_WITHOUT_GUARD);
  });

  it("has every route handler under the dashboard check the browser session, not just the key", () => {
    const handlers = entries.filter((file) => file.startsWith("(dashboard)/") && file.endsWith("route.ts"));
    expect(handlers).toContain("(dashboard)/dashboard/[team]/keys/[keyId]/usage.csv/route.ts");
    for (const file of handlers) expect(readFileSync(path.join(appDir, file), "utf8"), file).toMatch(SESSION_GUARD);
    // The downloads' helper checks the session (and the key) before anything else.
    const helper = readFileSync(path.join(libDir, "web/download-member.ts"), "utf8");
    expect(helper).toMatch(
      /\{\n\s*const session = await requireApiSession\(request\);\n\s*if \(session instanceof Response\) return session;/,
    );
  });

  it("keeps server actions out of app/", () => {
    const inApp = files(appDir).filter((file) => /^\s*["']use server["']/.test(readFileSync(file, "utf8")));
    expect(inApp).toEqual([]);
  });

  it("has every server action made by the one wrapper, which checks the key and the session", () => {
    // tests/integration/action-wrapper.test.ts checks the same on the loaded modules; this reads the source.
    for (const file of actionModules) {
      const source = readFileSync(path.join(root, file), "utf8");
      expect(source, file).not.toMatch(/^export (async )?function /m);
      const exported = [...source.matchAll(/^export const (\w+) = (\w+)\(/gm)];
      expect(exported.length, file).toBeGreaterThan(0);
      for (const [, name, maker] of exported) {
        // defineAction itself, or a helper of this module that returns it (lib/web/actions/keys.ts's keyAction).
        const helper = new RegExp(`function ${maker}\\b[\\s\\S]*?return defineAction\\(`);
        expect(maker === "defineAction" || helper.test(source), `${file}: ${name}`).toBe(true);
      }
    }
    const wrapper = readFileSync(path.join(libDir, "web/define-action.ts"), "utf8");
    expect(wrapper).toMatch(/carriesApiKey\(requestHeaders\)/);
    expect(wrapper).toMatch(/requireActionSession\(\)/);
    expect(wrapper).toMatch(/recentlyVerified\(session\)/);
  });
});
