// The operator CLI. Where the process itself is the point (what reaches
// stdout and stderr, exit codes, a secret read from standard input) it runs as
// a process the way an operator runs it (`processAdmin`, about 4 s a start
// under tsx); every other case calls its entry point, runAdmin, in this
// process (`admin`): the same code from the argument parser on.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db, dbProvider } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { rateLimits } from "@/lib/env-schema";
import { DomainError } from "@/lib/domain-error";
import { API_KEY_PATTERN, generateApiKey } from "@/lib/keys/format";
import { createKey } from "@/lib/keys/lifecycle";
import { verifyApiKey } from "@/lib/keys/verify";
import type { UsageEvent } from "@/lib/usage/event";
import { rangeStart } from "@/lib/usage/usage-range";
import { writeUsage } from "../helpers/usage-writer";
import { adminInProcess } from "../helpers/admin-in-process";
import { processAdmin } from "../helpers/admin-process";

/**
 * What a change that may refuse a key prints beside its output: on PostgreSQL, how many instances confirmed it
 * (lib/instances/confirm-change.ts; no instance serves in this test, so none); on SQLite nothing.
 */
const confirmed = () =>
  dbProvider() === "postgres" ? { instances: { confirmed: 0, total: 0, ms: expect.any(Number) } } : {};

const admin = adminInProcess;

const email = `operator-${Date.now()}@example.com`;

describe("npm run admin", () => {
  it("creates a user with the password from standard input, never from the command line", async () => {
    const result = await processAdmin(
      ["user:create", "--email", `  ${email.toUpperCase()} `],
      "a long enough password\n",
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email });
    expect(result.stdout + result.stderr).not.toContain("a long enough password");
    const short = await processAdmin(["user:create", "--email", `short-${email}`], "short\n");
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/Use at least 10 characters/);
  });

  it("refuses to run in test mode outside a test database, as the server refuses to start, and creates nothing", async () => {
    const refusedEmail = `test-mode-${Date.now()}@example.com`;
    const args = ["user:create", "--email", refusedEmail];
    vi.stubEnv("DATABASE_URL", "file:/var/lib/keyport/keyport.db");
    try {
      const refused = await admin(args, "a long enough password\n");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^admin: KEYPORT_TEST_MODE=1 is only for the test suite/);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(await db.user.count({ where: { email: refusedEmail } })).toBe(0);
    // Control: the same command on the suite's own database runs.
    expect((await admin(args, "a long enough password\n")).code).toBe(0);
    expect(await db.user.count({ where: { email: refusedEmail } })).toBe(1);
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
    const created = await processAdmin([
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
    expect(JSON.parse(revoked.stdout)).toEqual({ id: row.publicId, status: "revoked", ...confirmed() });
    expect(await verifyApiKey(byId)).toMatchObject({ ok: false, reason: "revoked" });

    const found = (
      await admin(["key:create", "--email", email, "--env", "dev", "--label", "found in a log"])
    ).stdout.trim();
    const glass = await processAdmin(["key:revoke", "--stdin"], `${found}\n`);
    expect(glass.code).toBe(0);
    const output = JSON.parse(glass.stdout) as { id: string; owner: { email: string } };
    expect(output.owner.email).toBe(email);
    expect(output.id).toMatch(/^key_/);
    expect(glass.stdout + glass.stderr).not.toContain(found);
    expect(await verifyApiKey(found)).toMatchObject({ ok: false, reason: "revoked" });
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
    // As a process too: the exit code reaches the shell.
    expect((await processAdmin(["key:list", "--bogus"])).code).toBe(2);
    const unknownUser = await processAdmin(["key:list", "--email", "nobody@example.com"]);
    expect(unknownUser).toMatchObject({ code: 1, stdout: "" });
    expect(unknownUser.stderr).toMatch(/No user with the email nobody@example.com/);
    expect((await admin(["key:revoke", "--id", "key_NoSuchKeyHere000"])).code).toBe(1);
    expect((await admin(["key:revoke", "--stdin"], "sk_dev_not-a-real-key\n")).code).toBe(1);
  });

  it("refuses a label that holds an API key with exit 2, without echoing it, and creates nothing", async () => {
    const secret = generateApiKey("prod");
    const before = await db.apiKey.count({ where: { user: { email } } });
    const result = await admin(["key:create", "--email", email, "--env", "dev", "--label", `ci ${secret}`]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(/--label: The label cannot contain an API key\./);
    expect(result.stderr).not.toContain(secret);
    expect(await db.apiKey.count({ where: { user: { email } } })).toBe(before);
  });
});

describe("npm run admin: key restrictions", () => {
  const owner = `restricted-${Date.now()}@example.com`;
  const keyRow = (label: string) => db.apiKey.findFirstOrThrow({ where: { label, user: { email: owner } } });
  const auditDetails = async (keyId: string, action: string) => {
    const events = await db.teamAuditEvent.findMany({ where: { keyId, action }, orderBy: { createdAt: "asc" } });
    return events.map((event) => ({ userAgent: event.userAgent, details: JSON.parse(event.details!) as unknown }));
  };
  const create = (label: string, ...flags: string[]) =>
    admin(["key:create", "--email", owner, "--env", "dev", "--label", label, ...flags]);

  beforeAll(async () => {
    expect((await admin(["user:create", "--email", owner], "a long enough password\n")).code).toBe(0);
  });

  it("key:create stores the scopes, allowlist and rate limit given, and audits them", async () => {
    const created = await create(
      "reader",
      "--scopes",
      "models:invoke,catalog:read",
      "--allow-ip",
      "203.0.113.0/24,2001:db8::/32,198.51.100.7",
      "--rate-limit",
      "30",
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toMatch(API_KEY_PATTERN);
    const row = await keyRow("reader");
    // Scopes in the catalog's order; a single address stored as its /32.
    expect(row).toMatchObject({
      scopes: "catalog:read models:invoke",
      allowedIps: "203.0.113.0/24 2001:db8::/32 198.51.100.7/32",
      rateLimit: 30,
    });
    expect(await auditDetails(row.publicId, "key.created")).toEqual([
      {
        userAgent: "keyport-admin-cli",
        details: {
          environment: "dev",
          label: "reader",
          scopes: ["catalog:read", "models:invoke"],
          allowed_ips: ["203.0.113.0/24", "2001:db8::/32", "198.51.100.7"],
          rate_limit_per_minute: 30,
        },
      },
    ]);

    expect((await create("read only", "--scopes", "read-only")).code).toBe(0);
    expect(await keyRow("read only")).toMatchObject({
      scopes: "catalog:read generations:read",
      allowedIps: null,
      rateLimit: null,
    });
    expect((await create("everything", "--scopes", "all", "--allow-ip", "none")).code).toBe(0);
    expect(await keyRow("everything")).toMatchObject({ scopes: "all", allowedIps: null, rateLimit: null });
  });

  it("lets the operator set a rate limit above the environment's default, which the dashboard cannot", async () => {
    const above = rateLimits(getEnv(), "dev").perKey + 1;
    const user = await db.user.findUniqueOrThrow({ where: { email: owner } });
    const restrictions = { scopes: "all", allowedIps: null, rateLimit: above } as const;
    const dashboard = createKey(
      { userId: user.id, ip: null, userAgent: "test" },
      {
        label: "too fast",
        environment: "dev",
        expiresAt: null,
        restrictions,
      },
    );
    await expect(dashboard).rejects.toBeInstanceOf(DomainError);

    const created = await create("fast lane", "--rate-limit", String(above));
    expect(created.code, created.stderr).toBe(0);
    expect((await keyRow("fast lane")).rateLimit).toBe(above);
    const updated = await admin([
      "key:update",
      "--id",
      (await keyRow("read only")).publicId,
      "--rate-limit",
      String(above),
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    expect((await keyRow("read only")).rateLimit).toBe(above);
  });

  it("key:update changes only what is given, keeps the rest, and audits before and after", async () => {
    expect(
      (await create("to restrict", "--scopes", "read-only", "--allow-ip", "203.0.113.0/24", "--rate-limit", "30")).code,
    ).toBe(0);
    const { publicId } = await keyRow("to restrict");

    const scoped = await admin(["key:update", "--id", publicId, "--scopes", "models:invoke"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    const afterScopes = { scopes: ["models:invoke"], allowed_ips: ["203.0.113.0/24"], rate_limit_per_minute: 30 };
    expect(JSON.parse(scoped.stdout)).toEqual({ id: publicId, restrictions: afterScopes, ...confirmed() });
    expect(await keyRow("to restrict")).toMatchObject({
      scopes: "models:invoke",
      allowedIps: "203.0.113.0/24",
      rateLimit: 30,
    });

    const cleared = await admin(["key:update", "--id", publicId, "--allow-ip", "none", "--rate-limit", "default"]);
    expect(cleared.code, cleared.stderr).toBe(0);
    const afterClear = { scopes: ["models:invoke"], allowed_ips: "any", rate_limit_per_minute: "default" };
    expect(JSON.parse(cleared.stdout)).toEqual({ id: publicId, restrictions: afterClear, ...confirmed() });
    expect(await keyRow("to restrict")).toMatchObject({ scopes: "models:invoke", allowedIps: null, rateLimit: null });

    // Asking for what the key already has is refused, and leaves no activity row.
    const same = await admin(["key:update", "--id", publicId, "--scopes", "models:invoke"]);
    expect(same).toMatchObject({ code: 1, stdout: "" });
    expect(same.stderr).toMatch(/Nothing changed/);

    expect(await auditDetails(publicId, "key.restricted")).toEqual([
      {
        userAgent: "keyport-admin-cli",
        details: {
          before: {
            scopes: ["catalog:read", "generations:read"],
            allowed_ips: ["203.0.113.0/24"],
            rate_limit_per_minute: 30,
          },
          after: afterScopes,
        },
      },
      { userAgent: "keyport-admin-cli", details: { before: afterScopes, after: afterClear } },
    ]);
  });

  it("refuses unknown scopes, bad IP entries and bad rate limits with exit 2, and changes nothing", async () => {
    expect((await create("untouched", "--scopes", "read-only", "--allow-ip", "198.51.100.0/24")).code).toBe(0);
    const before = await keyRow("untouched");
    const user = await db.user.findUniqueOrThrow({ where: { email: owner } });
    // Rows in the person's account chain and in any team's chain in their name.
    const rowsOf = async (userId: string) =>
      (await db.auditEvent.count({ where: { userId } })) +
      (await db.teamAuditEvent.count({ where: { actorId: userId } }));
    const auditCount = await rowsOf(user.id);
    const cases: [string[], RegExp][] = [
      [
        ["--scopes", "catalog:write"],
        /--scopes: “catalog:write” is not a scope; use all, read-only or a comma-separated list of: catalog:read, models:invoke/,
      ],
      [["--scopes", "catalog:read,all"], /--scopes: “all” is not a scope/],
      [["--scopes", ""], /--scopes: the list is empty/],
      [["--scopes", " , "], /--scopes: the list is empty/],
      [["--allow-ip", "10.0.0.300"], /--allow-ip: “10\.0\.0\.300” is not an IPv4 or IPv6 address or CIDR range/],
      [
        ["--allow-ip", "10.0.0.1/24"],
        /--allow-ip: “10\.0\.0\.1\/24” has bits set after the prefix: did you mean 10\.0\.0\.0\/24\?/,
      ],
      [["--allow-ip", "203.0.113.7,not-an-ip"], /--allow-ip: “not-an-ip” is not an IPv4 or IPv6 address/],
      [["--allow-ip", ""], /--allow-ip: the list is empty/],
      [["--rate-limit", "0"], /--rate-limit: “0” is not a whole number from 1 to 1000000/],
      [["--rate-limit", "1000001"], /--rate-limit: “1000001” is not a whole number from 1 to 1000000/],
      [["--rate-limit", "2.5"], /--rate-limit: “2\.5” is not a whole number/],
      [["--rate-limit", "fast"], /--rate-limit: “fast” is not a whole number/],
    ];
    const runs = cases.flatMap(([flags, message]) => [
      { args: ["key:update", "--id", before.publicId, ...flags], message },
      { args: ["key:create", "--email", owner, "--env", "dev", "--label", "refused", ...flags], message },
    ]);
    runs.push({
      args: ["key:update", "--id", before.publicId],
      message: /give at least one of --scopes, --allow-ip, --rate-limit/,
    });
    // Through runAdmin in this process (a tsx process per case is slow); the first two as the operator runs them.
    for (const [i, { args, message }] of runs.entries()) {
      const result = i < 2 ? await processAdmin(args) : await adminInProcess(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(result.stderr, args.join(" ")).toMatch(message);
      expect(result.stderr).toMatch(/usage: npm run -s admin/);
    }
    expect(await keyRow("untouched")).toEqual(before);
    expect(await db.apiKey.count({ where: { label: "refused" } })).toBe(0);
    expect(await rowsOf(user.id)).toBe(auditCount);
  });

  it("key:list shows each key's scopes, allowlist and rate limit", async () => {
    expect(
      (await create("listed", "--scopes", "files:write", "--allow-ip", "2001:db8::1", "--rate-limit", "7")).code,
    ).toBe(0);
    expect((await create("listed open")).code).toBe(0);
    const listed = await admin(["key:list", "--email", owner]);
    expect(listed.code, listed.stderr).toBe(0);
    const keys = JSON.parse(listed.stdout) as { label: string; restrictions: unknown }[];
    const restrictionsOf = (label: string) => keys.find((key) => key.label === label)?.restrictions;
    expect(restrictionsOf("listed")).toEqual({
      scopes: ["files:write"],
      allowed_ips: ["2001:db8::1"],
      rate_limit_per_minute: 7,
    });
    expect(restrictionsOf("listed open")).toEqual({
      scopes: "all",
      allowed_ips: "any",
      rate_limit_per_minute: "default",
    });
  });
});

describe("npm run admin: key:usage", () => {
  const owner = `usage-cli-${Date.now()}@example.com`;
  const HOUR_MS = 3_600_000;
  let keyId: string;

  /** `count` events of one kind, `hoursAgo` hours before now. */
  function events(
    rowId: string,
    userId: string,
    count: number,
    hoursAgo: number,
    { route = "list_models", status = 200, errorCode = null as string | null, ip = "203.0.113.1" } = {},
  ): UsageEvent[] {
    return Array.from({ length: count }, () => ({
      requestId: `req_${randomUUID()}`,
      keyId: rowId,
      userId,
      route,
      status,
      errorCode,
      latencyMs: 3,
      ip,
      userAgent: "usage-cli-test/1.0",
      createdAt: new Date(Date.now() - hoursAgo * HOUR_MS),
    }));
  }

  beforeAll(async () => {
    expect((await admin(["user:create", "--email", owner], "a long enough password\n")).code).toBe(0);
    const user = await db.user.findUniqueOrThrow({ where: { email: owner } });
    const restrictions = { scopes: "all", allowedIps: null, rateLimit: null } as const;
    const actor = { userId: user.id, ip: null, userAgent: "test" };
    const create = (label: string) => createKey(actor, { label, environment: "dev", expiresAt: null, restrictions });
    keyId = (await create("watched")).key.id;
    const other = (await create("other")).key.id;
    const rowId = async (publicId: string) =>
      (await db.apiKey.findUniqueOrThrow({ where: { publicId }, select: { id: true } })).id;
    const [row, otherRow] = [await rowId(keyId), await rowId(other)];

    await writeUsage([
      // The last day: 8 requests from three addresses, 3 of them after the key stopped working.
      ...events(row, user.id, 3, 1, { ip: "203.0.113.1" }),
      ...events(row, user.id, 1, 1, { status: 500, errorCode: "internal_error", ip: "203.0.113.1" }),
      ...events(row, user.id, 1, 1, {
        route: "create_chat_completion",
        status: 429,
        errorCode: "rate_limited",
        ip: "198.51.100.2",
      }),
      ...events(row, user.id, 2, 2, { status: 401, errorCode: "revoked_api_key", ip: "192.0.2.3" }),
      ...events(row, user.id, 1, 2, { status: 401, errorCode: "expired_api_key", ip: "192.0.2.3" }),
      // Three days ago: in 7d, not in 24h.
      ...events(row, user.id, 2, 72, { ip: "203.0.113.4" }),
      // Forty days ago: outside every range.
      ...events(row, user.id, 5, 40 * 24, { ip: "203.0.113.5" }),
      // Another key's requests never count.
      ...events(otherRow, user.id, 6, 1, { ip: "203.0.113.6" }),
    ]);
    // Ten days ago, and already pruned from the request log: the aggregates still count them.
    const pruned = events(row, user.id, 4, 10 * 24, { route: "get_app", ip: "203.0.113.7" });
    await writeUsage(pruned);
    await db.usageEvent.deleteMany({ where: { requestId: { in: pruned.map((event) => event.requestId) } } });
  });

  it("counts the last 24 hours by default: status classes, routes, addresses and use after revocation", async () => {
    const before = Date.now();
    const result = await admin(["key:usage", "--id", keyId]);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { since: string };
    expect(summary).toEqual({
      key_id: keyId,
      since: summary.since,
      total: 8,
      by_status_class: { "2xx": 3, "4xx": 4, "5xx": 1 },
      by_route: { list_models: 7, create_chat_completion: 1 },
      by_ip: { "203.0.113.1": 4, "192.0.2.3": 3, "198.51.100.2": 1 },
      after_revocation: 3,
    });
    // The range as the dashboard draws it: this hour and the 23 before.
    expect([rangeStart("24h", new Date(before)), rangeStart("24h", new Date())].map(String)).toContain(
      String(new Date(summary.since)),
    );
  });

  it("widens to 7 and 30 days; the counts outlive the request log, the addresses do not", async () => {
    const week = await adminInProcess(["key:usage", "--id", keyId, "--since", "7d"]);
    expect(week.code, week.stderr).toBe(0);
    expect(JSON.parse(week.stdout)).toMatchObject({
      total: 10,
      by_status_class: { "2xx": 5, "4xx": 4, "5xx": 1 },
      by_route: { list_models: 9, create_chat_completion: 1 },
      by_ip: { "203.0.113.1": 4, "192.0.2.3": 3, "203.0.113.4": 2, "198.51.100.2": 1 },
      after_revocation: 3,
    });
    const month = await adminInProcess(["key:usage", "--id", keyId, "--since", "30d"]);
    expect(month.code, month.stderr).toBe(0);
    expect(JSON.parse(month.stdout)).toMatchObject({
      total: 14,
      by_status_class: { "2xx": 9, "4xx": 4, "5xx": 1 },
      by_route: { list_models: 9, get_app: 4, create_chat_completion: 1 },
      by_ip: { "203.0.113.1": 4, "192.0.2.3": 3, "203.0.113.4": 2, "198.51.100.2": 1 },
      after_revocation: 3,
    });
  });

  it("exits 1 for an unknown key and 2 for a range it does not know", async () => {
    const unknown = await adminInProcess(["key:usage", "--id", "key_NoSuchKeyHere000"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toMatch(/No key with the id key_NoSuchKeyHere000/);
    for (const since of ["5m", "1d", "", "24H"]) {
      const result = await adminInProcess(["key:usage", "--id", keyId, "--since", since]);
      expect(result.code, since).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`--since: “${since}” is not a range key:usage knows; use one of 24h, 7d, 30d.`);
    }
    expect((await adminInProcess(["key:usage"])).code).toBe(2);
  });
});
