// The operator CLI, run as a process the way an operator runs it.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { API_KEY_PATTERN } from "@/lib/keys/format";
import { verifyApiKey } from "@/lib/keys/verify";
import { projectRoot } from "../helpers/test-database";

function admin(args: string[], stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(projectRoot, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", "scripts/admin.mts", ...args],
      {
        cwd: projectRoot,
        env: { ...process.env },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const email = `operator-${Date.now()}@example.com`;

describe("npm run admin", () => {
  it("creates a user with the password from standard input, never from the command line", async () => {
    const result = await admin(["user:create", "--email", `  ${email.toUpperCase()} `], "a long enough password\n");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email });
    expect(result.stdout + result.stderr).not.toContain("a long enough password");
    const short = await admin(["user:create", "--email", `short-${email}`], "short\n");
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/Use at least 10 characters/);
  });

  it("creates ten users in a row from one address: an operator is not held to the web sign-up limit", async () => {
    const { runAdmin } = await import("@/lib/admin/cli");
    const { PassThrough } = await import("node:stream");
    const created: string[] = [];
    for (let i = 0; i < 10; i++) {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      stdin.end("a long enough password\n");
      let out = "";
      stdout.on("data", (chunk) => (out += chunk));
      const code = await runAdmin(["user:create", "--email", `ten-${i}-${email}`], { stdin, stdout, stderr });
      expect(code, `user ${i}`).toBe(0);
      created.push(JSON.parse(out).id);
    }
    // Each account's activity says an operator made it; no sign-up attempt was counted.
    for (const userId of created) {
      const audit = await db.auditEvent.findFirstOrThrow({ where: { userId, action: "auth.account_created" } });
      expect(JSON.parse(audit.details!)).toEqual({ by: "keyport-admin-cli" });
    }
    expect(await db.authAttempt.count({ where: { email: { startsWith: "ten-" }, kind: "sign_up" } })).toBe(0);
  });

  it("prints only the new secret for key:create, and key:list prints JSON without secrets", async () => {
    const created = await admin([
      "key:create",
      "--email",
      email,
      "--env",
      "prod",
      "--label",
      "billing",
      "--expires-in-days",
      "30",
    ]);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(created.stdout).toBe(`${secret}\n`);
    expect(secret).toMatch(API_KEY_PATTERN);
    expect(secret.startsWith("sk_prod_")).toBe(true);
    expect(await verifyApiKey(secret)).toMatchObject({ ok: true });

    const listed = await admin(["key:list", "--email", email]);
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.stdout) as { id: string; label: string; status: string; displayFragment: string }[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ label: "billing", status: "active", environment: "prod" });
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).not.toContain("digest");
  });

  it("revokes by id, and by a secret read from standard input (the break-glass path)", async () => {
    const byId = (await admin(["key:create", "--email", email, "--env", "dev", "--label", "to revoke"])).stdout.trim();
    const row = await db.apiKey.findFirstOrThrow({ where: { label: "to revoke", user: { email } } });
    const revoked = await admin(["key:revoke", "--id", row.publicId]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: row.publicId, status: "revoked" });
    expect(await verifyApiKey(byId)).toEqual({ ok: false, reason: "revoked" });

    const found = (
      await admin(["key:create", "--email", email, "--env", "dev", "--label", "found in a log"])
    ).stdout.trim();
    const glass = await admin(["key:revoke", "--stdin"], `${found}\n`);
    expect(glass.code).toBe(0);
    const output = JSON.parse(glass.stdout) as { id: string; owner: { email: string } };
    expect(output.owner.email).toBe(email);
    expect(output.id).toMatch(/^key_/);
    expect(glass.stdout + glass.stderr).not.toContain(found);
    expect(await verifyApiKey(found)).toEqual({ ok: false, reason: "revoked" });
  });

  it("exits 2 with usage on bad arguments, and 1 on unknown users or keys", async () => {
    for (const args of [
      [],
      ["nonsense"],
      ["key:create", "--env", "dev"],
      ["key:create", "--email", email, "--env", "staging", "--label", "x"],
      ["key:list", "--bogus"],
    ]) {
      const result = await admin(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/usage: npm run -s admin/);
    }
    const unknownUser = await admin(["key:list", "--email", "nobody@example.com"]);
    expect(unknownUser).toMatchObject({ code: 1, stdout: "" });
    expect(unknownUser.stderr).toMatch(/No user with the email nobody@example.com/);
    expect((await admin(["key:revoke", "--id", "key_0000000000000000"])).code).toBe(1);
    expect((await admin(["key:revoke", "--stdin"], "sk_dev_not-a-real-key\n")).code).toBe(1);
  });
});
