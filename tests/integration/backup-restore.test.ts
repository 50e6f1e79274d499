// Backup and restore (npm run admin -- backup / restore; docs/operations.md,
// "Backups and restore") on the suite's database: SQLite, and PostgreSQL in
// CI's second pass (TEST_DATABASE_URL). A database of this file's own gets
// accounts, a team, keys (one revoked), usage, activity and uploaded files;
// the command line backs it up in a process of its own while this one keeps
// writing, and the backup is restored into an empty database, which must hold
// the same rows and bytes as at the backup's moment, pass audit:verify, and
// answer every key as before. Restore refuses a database that holds data
// without --force, and one a server is running on. Then the attack review's
// cases (issue 36): the archive is made 0600 and never through a name someone
// else made; an archive holding a link, a FIFO, a stranger's name, a huge or
// a future manifest is refused before anything is touched; and a restored
// tree gets the files store's modes, never the archive's setuid bits.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminInProcess as admin } from "../helpers/admin-in-process";
import { processAdmin } from "../helpers/admin-process";
import { copyOfTemplate, createTestDatabase } from "../helpers/test-database";

// This file's databases and files' folders, set before any of the app's modules reads the environment.
const source = await copyOfTemplate();
const target = await createTestDatabase();
const work = mkdtempSync(path.join(os.tmpdir(), "keyport-backup-test-"));
const sourceFiles = path.join(work, "source-files");
const targetFiles = path.join(work, "target-files");
process.env.DATABASE_URL = source.url;
process.env.FILES_DIR = sourceFiles;
const { createRuntime } = await import("@/lib/runtime/create-runtime");
const { publishRuntime } = await import("@/lib/runtime/runtime");
const { getEnv } = await import("@/lib/env");
const sourceRuntime = createRuntime({ ...getEnv(), DATABASE_URL: source.url, FILES_DIR: sourceFiles });
const targetRuntime = createRuntime({ ...getEnv(), DATABASE_URL: target.url, FILES_DIR: targetFiles });
publishRuntime(sourceRuntime);
const { renameKey } = await import("@/lib/keys/lifecycle");
const { verifyApiKey } = await import("@/lib/keys/verify");
const { saveUpload, INCOMING_FOLDER } = await import("@/lib/files/store");
const { writeUsage } = await import("../helpers/usage-writer");
type Db = import("@/lib/db").Db;
type UsageEvent = import("@/lib/usage/event").UsageEvent;

const archive = path.join(work, "keyport.backup.tar");
const PASSWORD = "a long enough password\n";
const secrets: Record<"personal" | "team" | "revoked", string> = { personal: "", team: "", revoked: "" };
const fileBytes: Record<string, Buffer> = {};
let load: { userId: string; teamId: string; keyRowId: string; keyId: string };

afterAll(async () => {
  for (const made of [sourceRuntime, targetRuntime]) {
    await made.close();
    await made.db.$disconnect();
  }
  await source.drop();
  await target.drop();
  rmSync(work, { recursive: true, force: true });
});

async function ok(args: string[], input = "") {
  const result = await admin(args, input);
  expect(result, args.join(" ")).toMatchObject({ code: 0 });
  return result.stdout.trim();
}

function usage(keyRowId: string, userId: string, requestId: string, hoursAgo = 0): UsageEvent {
  return {
    requestId,
    keyId: keyRowId,
    userId,
    route: "list_models",
    status: 200,
    errorCode: null,
    latencyMs: 12,
    ip: "203.0.113.9",
    userAgent: "backup-test",
    createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
  };
}

/** Stores an upload of `bytes` random bytes for the key, as POST /api/v1/files does once it has received them. */
async function upload(db: Db, keyId: string, bytes: number) {
  const key = await db.apiKey.findUniqueOrThrow({ where: { publicId: keyId } });
  const content = randomBytes(bytes);
  const received = path.join(sourceFiles, INCOMING_FOLDER, randomBytes(8).toString("hex"));
  mkdirSync(path.dirname(received), { recursive: true });
  writeFileSync(received, content);
  const owner = {
    teamId: key.teamId,
    userId: key.userId,
    environment: key.environment as "dev" | "prod",
    apiKeyId: key.id,
  };
  const stored = await saveUpload(
    owner,
    { path: received, filename: "notes.bin", mimeType: "application/octet-stream", bytes, truncated: false },
    "assistants",
  );
  fileBytes[stored.id] = content;
}

/** Every row the comparison covers, in a fixed order. */
async function rowsOf(db: Db) {
  return {
    users: await db.user.findMany({ orderBy: { id: "asc" } }),
    teams: await db.team.findMany({ orderBy: { id: "asc" } }),
    memberships: await db.membership.findMany({ orderBy: [{ teamId: "asc" }, { userId: "asc" }] }),
    keys: await db.apiKey.findMany({ orderBy: { id: "asc" } }),
    audit: await db.auditEvent.findMany({ orderBy: [{ userId: "asc" }, { seq: "asc" }] }),
    teamAudit: await db.teamAuditEvent.findMany({ orderBy: [{ teamId: "asc" }, { seq: "asc" }] }),
    usage: await db.usageEvent.findMany({ orderBy: { requestId: "asc" } }),
    usageHours: await db.usageHourly.findMany({
      orderBy: [{ keyId: "asc" }, { hour: "asc" }, { route: "asc" }, { statusClass: "asc" }],
    }),
    files: await db.storedFile.findMany({ orderBy: { id: "asc" } }),
  };
}

type Rows = Awaited<ReturnType<typeof rowsOf>>;

/** The rows the load below leaves alone: everything but its own key, team, activity and usage. */
function withoutLoad(rows: Rows) {
  return {
    ...rows,
    teams: rows.teams.filter((team) => team.id !== load.teamId),
    keys: rows.keys.filter((key) => key.id !== load.keyRowId),
    teamAudit: rows.teamAudit.filter((row) => row.teamId !== load.teamId),
    usage: rows.usage.filter((row) => row.keyId !== load.keyRowId),
    usageHours: rows.usageHours.filter((row) => row.keyId !== load.keyRowId),
  };
}

beforeAll(async () => {
  const { db } = await import("@/lib/db");
  const ops = `ops-${randomBytes(4).toString("hex")}@example.com`;
  const dev = `dev-${randomBytes(4).toString("hex")}@example.com`;
  const loader = `load-${randomBytes(4).toString("hex")}@example.com`;
  for (const email of [ops, dev, loader]) await ok(["user:create", "--email", email], PASSWORD);
  const { slug } = JSON.parse(await ok(["team:create", "--name", "Payments", "--owner", ops])) as { slug: string };
  await ok(["team:add-member", "--team", slug, "--email", dev, "--role", "developer"]);
  secrets.personal = await ok(["key:create", "--email", ops, "--env", "prod", "--label", "billing"]);
  secrets.team = await ok(["key:create", "--team", slug, "--email", dev, "--env", "dev", "--label", "ci"]);
  secrets.revoked = await ok(["key:create", "--team", slug, "--email", ops, "--env", "prod", "--label", "old"]);
  await ok(["key:create", "--email", loader, "--env", "dev", "--label", "load 0"]);
  const keys = await db.apiKey.findMany({
    select: { id: true, publicId: true, label: true, userId: true, teamId: true },
  });
  const byLabel = (label: string) => keys.find((key) => key.label === label)!;
  await ok(["key:revoke", "--id", byLabel("old").publicId]);
  const loadKey = byLabel("load 0");
  load = { userId: loadKey.userId, teamId: loadKey.teamId, keyRowId: loadKey.id, keyId: loadKey.publicId };
  const [billing, ci] = [byLabel("billing"), byLabel("ci")];
  await writeUsage([
    ...[1, 2, 3].map((n) => usage(billing.id, billing.userId, `req_billing_${n}`, n)),
    ...[1, 2].map((n) => usage(ci.id, ci.userId, `req_ci_${n}`, 30 + n)),
  ]);
  await upload(db, billing.publicId, 96 * 1024);
  await upload(db, ci.publicId, 1_000);
});

describe("backup and restore", () => {
  it("backs up while writes go on, and restores every key, usage row, activity row and file into an empty database", async () => {
    const before = withoutLoad(await rowsOf(sourceRuntime.db));
    expect(before.keys).toHaveLength(3);
    expect(before.files).toHaveLength(2);

    // A load of writes while the backup runs: each renames the load key (a row and an activity row in its team's
    // chain) and records a request of it (a log row and its hourly count, one transaction).
    const actor = { userId: load.userId, ip: null, userAgent: "backup-test", kind: "person" as const };
    let renames = 0;
    let running = true;
    const writing = (async () => {
      while (running) {
        renames += 1;
        await renameKey(actor, load.keyId, `load ${renames}`);
        await writeUsage([usage(load.keyRowId, load.userId, `req_load_${String(renames).padStart(6, "0")}`)]);
      }
    })();
    const backup = await processAdmin(["backup", "--to", archive]);
    running = false;
    await writing;
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const made = JSON.parse(backup.stdout) as Record<string, unknown>;
    expect(made).toMatchObject({ backup: archive, provider: source.provider, files: 2 });
    // It holds password hashes and key digests: for its owner only, whatever the umask.
    expect(statSync(archive).mode & 0o777).toBe(0o600);

    publishRuntime(targetRuntime);
    const restored = await admin(["restore", "--from", archive]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({
      restored: archive,
      provider: source.provider,
      backup_taken_at: made.taken_at,
      backup_age: "less than a minute ago",
      pending_migrations: [],
      files: 2,
      encryption_key: "same",
    });
    expect(restored.stderr).toContain(`restored a backup taken less than a minute ago (${made.taken_at as string})`);
    expect(restored.stderr).toContain("Keys revoked since the backup was taken work again until they are revoked anew");

    // Everything the load left alone is as it was, row for row.
    const after = await rowsOf(targetRuntime.db);
    expect(withoutLoad(after)).toEqual(before);
    // The load's writes, as of one moment between two of them: k renames (the key's label and its k activity
    // rows agree) and a whole number of usage batches, some before the backup's moment and some after.
    const sourceNow = await rowsOf(sourceRuntime.db);
    const k = Number(/^load (\d+)$/.exec(after.keys.find((key) => key.id === load.keyRowId)!.label)![1]);
    expect(k).toBeGreaterThan(0);
    expect(k).toBeLessThan(renames);
    const loadAudit = (rows: Rows) => rows.teamAudit.filter((row) => row.teamId === load.teamId);
    expect(loadAudit(after)).toEqual(loadAudit(sourceNow).slice(0, loadAudit(after).length));
    expect(loadAudit(after).filter((row) => row.action === "key.renamed")).toHaveLength(k);
    const loadUsage = (rows: Rows) => rows.usage.filter((row) => row.keyId === load.keyRowId);
    const m = loadUsage(after).length;
    expect(loadUsage(after)).toEqual(loadUsage(sourceNow).slice(0, m));
    expect(m).toBeGreaterThanOrEqual(k - 1);
    expect(m).toBeLessThanOrEqual(k);
    const hourly = after.usageHours.filter((row) => row.keyId === load.keyRowId);
    expect(hourly.reduce((sum, row) => sum + row.count, 0)).toBe(m);

    // Every file's bytes, where its row says.
    for (const file of after.files) {
      expect(readFileSync(path.join(targetFiles, file.storagePath)).equals(fileBytes[file.id]!), file.id).toBe(true);
    }

    // The activity chains verify, every key answers as before, and the revoked one stays revoked.
    const verified = await admin(["audit:verify"]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({
      ok: true,
      accounts: after.users.length,
      teams: after.teams.length,
    });
    expect(await verifyApiKey(secrets.personal)).toMatchObject({ ok: true });
    expect(await verifyApiKey(secrets.team)).toMatchObject({ ok: true });
    expect(await verifyApiKey(secrets.revoked)).toMatchObject({ ok: false, reason: "revoked" });
  });

  it("refuses a database that holds data without --force, and one a server is running on", async () => {
    // The restored database holds data: refused, and nothing changes.
    const refused = await admin(["restore", "--from", archive]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^admin: The database holds data \(rows in .+\): restore replaces all of it only when given --force\.\n$/,
    );

    // A server on it, as this process now is: SQLite sees its connection (another process has the file open);
    // PostgreSQL its live lease (a heartbeat in GateInstance). The command line, in its own process, refuses.
    await targetRuntime.db.$queryRawUnsafe("SELECT 1");
    if (target.provider === "postgres") {
      targetRuntime.instance!.start();
      await vi.waitFor(() => expect(targetRuntime.instance!.trusted()).toBe(true), { timeout: 10_000 });
    }
    const env = { DATABASE_URL: target.url, FILES_DIR: targetFiles };
    const running = await processAdmin(["restore", "--from", archive, "--force"], "", env);
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(
      target.provider === "postgres"
        ? /^admin: 1 instance serves this database \(a heartbeat in the last 10 s, table "GateInstance"\): stop every instance, then restore\./
        : /^admin: Another process has .+ open \(a running server, or another command\): stop it, then restore\.\n$/,
    );

    // Stopped, a key revoked since the backup: --force restores over it, and the key works again, as warned.
    await targetRuntime.instance?.close();
    await ok([
      "key:revoke",
      "--id",
      (await targetRuntime.db.apiKey.findFirstOrThrow({ where: { label: "billing" } })).publicId,
    ]);
    expect(await verifyApiKey(secrets.personal)).toMatchObject({ ok: false, reason: "revoked" });
    await targetRuntime.db.$disconnect();
    const forced = await admin(["restore", "--from", archive, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({
      files: 2,
      kept_aside: expect.stringContaining("target-files.before-restore-"),
    });
    expect(await verifyApiKey(secrets.personal)).toMatchObject({ ok: true });
  });

  it("resolves a relative --to from the caller's folder, never writes through a name made there, and refuses FILES_DIR", async () => {
    // Someone able to write in the backups' folder made the name the archive used to be written under first.
    const victim = path.join(work, "victim.txt");
    writeFileSync(victim, "not yours\n");
    symlinkSync(victim, path.join(work, "relative.tar.partial"));
    // npm run moves to the package's folder, and says where the caller was in INIT_CWD.
    vi.stubEnv("INIT_CWD", work);
    try {
      const made = await admin(["backup", "--to", "relative.tar"]);
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse(made.stdout)).toMatchObject({ backup: path.join(work, "relative.tar") });
      const inside = await admin(["backup", "--to", path.join(targetFiles, "in.tar")]);
      expect(inside.code).toBe(2);
      expect(inside.stderr).toMatch(
        /^admin: --to: .+ is inside FILES_DIR \(.+\): keep backups out of the uploads' folder\n/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
    expect(readFileSync(victim, "utf8")).toBe("not yours\n");
    expect(statSync(path.join(work, "relative.tar")).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(targetFiles, "in.tar"))).toBe(false);
  });

  it("refuses an archive holding a link, a FIFO, a stranger, a huge or a future manifest, before touching anything", async () => {
    // The database now differs from the backup's (a key revoked since), so a restore that went ahead would show.
    const billing = await targetRuntime.db.apiKey.findFirstOrThrow({ where: { label: "billing" } });
    await ok(["key:revoke", "--id", billing.publicId]);
    // No connection of this process on it: a refusal must come from the archive, not from the database in use.
    await targetRuntime.db.$disconnect();
    const filesBefore = readdirSync(targetFiles, { recursive: true }).sort();
    const [databaseName, storedFile] = [databaseOf(), path.join("files", storedPaths()[0]!)];
    writeFileSync(path.join(work, "outside.txt"), "outside\n");
    const cases: [string, (folder: string) => void, RegExp][] = [
      [
        "link-in-files",
        (f) => symlinkSync("/etc/passwd", path.join(f, "files", "passwd")),
        /"files\/passwd" is not a regular file/,
      ],
      [
        "files-is-a-link",
        (f) => {
          rmSync(path.join(f, "files"), { recursive: true });
          symlinkSync(work, path.join(f, "files"));
        },
        /"files" is not a regular file/,
      ],
      [
        "database-is-a-link",
        (f) => {
          rmSync(path.join(f, databaseName));
          symlinkSync(path.join(work, "outside.txt"), path.join(f, databaseName));
        },
        /"database\.\w+" is not a regular file/,
      ],
      [
        "hard-link",
        (f) => linkSync(path.join(f, storedFile), path.join(f, "files", "again")),
        /"files\/.+" is not a regular file or a folder/,
      ],
      ["fifo", (f) => execFileSync("mkfifo", [path.join(f, "files", "pipe")]), /"files\/pipe" is not a regular file/],
      [
        "stranger",
        (f) => writeFileSync(path.join(f, "notes.txt"), "hi\n"),
        /"notes\.txt" is not a member a backup holds/,
      ],
      ["huge-manifest", (f) => editManifest(f, (m) => ({ ...m, migrations: ["x".repeat(1_100_000)] })), /over 1 MB/],
      [
        "future-manifest",
        (f) => editManifest(f, (m) => ({ ...m, taken_at: new Date(Date.now() + 3_600_000).toISOString() })),
        /in the future \(check the clocks\)/,
      ],
    ];
    for (const [name, change, reason] of cases) {
      const crafted = craftedArchive(name, change);
      const refused = await admin(["restore", "--from", crafted, "--force"]);
      expect(refused.code, `${name}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, name).toMatch(reason);
    }
    // A member outside the archive's folder, which GNU tar writes only when asked (-P).
    const escaping = craftedArchive("escaping", () => {}, ["-P", "../outside.txt"]);
    const refused = await admin(["restore", "--from", escaping, "--force"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"\.\.\/outside\.txt" is not a member a backup holds/);

    // Nothing was touched: the key is still revoked, the files' folder is as it was, no staging folder is left.
    expect(await verifyApiKey(secrets.personal)).toMatchObject({ ok: false, reason: "revoked" });
    expect(readdirSync(targetFiles, { recursive: true }).sort()).toEqual(filesBefore);
    expect(readdirSync(work).filter((name) => name.startsWith(".keyport-restore-"))).toEqual([]);
    expect(readFileSync("/etc/passwd", "utf8")).not.toBe("");
  });

  it("restores files 0600 and folders 0700, whatever modes the archive gives (never a setuid bit)", async () => {
    const crafted = craftedArchive("modes", (folder) => {
      const file = path.join(folder, "files", storedPaths()[0]!);
      chmodSync(file, 0o4777);
      chmodSync(path.dirname(file), 0o777);
      chmodSync(path.join(folder, "files"), 0o777);
    });
    await targetRuntime.db.$disconnect();
    const restored = await admin(["restore", "--from", crafted, "--force"]);
    expect(restored.code, restored.stderr).toBe(0);
    const modes = [".", ...readdirSync(targetFiles, { recursive: true })].map((name) => {
      const info = lstatSync(path.join(targetFiles, String(name)));
      return [String(name), info.isDirectory() ? "folder" : "file", info.mode & 0o7777] as const;
    });
    expect(modes.length).toBeGreaterThan(3);
    for (const [name, kind, mode] of modes) expect(mode, name).toBe(kind === "folder" ? 0o700 : 0o600);
  });

  it.runIf(source.provider === "postgres")("names the package to install when pg_dump is missing", async () => {
    vi.stubEnv("PATH", path.join(work, "no-programs-here"));
    try {
      const missing = await admin(["backup", "--to", path.join(work, "never.tar")]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^admin: pg_dump was not found: .*apt-get install postgresql-client\)\.\n$/);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(existsSync(path.join(work, "never.tar"))).toBe(false);
  });
});

/** The backup's database member, for the provider under test. */
function databaseOf() {
  return source.provider === "postgres" ? "database.pgdump" : "database.sqlite";
}

/** The stored files' paths under files/, as the backup holds them. */
function storedPaths(): string[] {
  return Object.keys(fileBytes).map((id) => {
    const found = readdirSync(sourceFiles, { recursive: true }).find((name) => String(name).endsWith(id));
    return String(found);
  });
}

function editManifest(folder: string, edit: (manifest: Record<string, unknown>) => Record<string, unknown>) {
  const file = path.join(folder, "manifest.json");
  writeFileSync(file, JSON.stringify(edit(JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>)));
}

/** The test's backup unpacked, changed by `change` and packed again, as someone crafting an archive would. */
function craftedArchive(name: string, change: (folder: string) => void, extra: string[] = []): string {
  const folder = path.join(work, `crafted-${name}`);
  mkdirSync(folder);
  execFileSync("tar", ["-xf", archive, "-C", folder]);
  change(folder);
  const members = readdirSync(folder).filter((member) => member !== "files");
  const file = `${folder}.tar`;
  const [flags, more] = [extra.filter((arg) => arg.startsWith("-")), extra.filter((arg) => !arg.startsWith("-"))];
  execFileSync("tar", ["-cf", file, ...flags, "-C", folder, ...members, "files", ...more]);
  return file;
}
