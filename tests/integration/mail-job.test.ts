import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { runMailJob } from "@/lib/mail/mail-job";
import { queueMail } from "@/lib/mail/outbox";
import { drainMail } from "../helpers/mail-job-fixtures";
import { linkIn, smtpServerForFile } from "../helpers/smtp-server";

// getEnv() caches; here each call reads process.env, so a test can point the job at another server.
vi.mock("@/lib/env", async () => {
  const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
  return { getEnv: () => parseEnv(process.env) };
});

const smtp = smtpServerForFile();
let counter = 0;
const address = () => `mail-job-${Date.now()}-${counter++}@example.com`;
const accountExists = (to: string) => queueMail(db, { kind: "account_exists", subject: to, to, data: { email: to } });

async function closedPort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the mail job", () => {
  it("delivers a queued message to its recipient with its subject and text", async () => {
    const to = address();
    expect(await accountExists(to)).toBe(true);
    await drainMail();
    const [mail, ...more] = smtp.to(to);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe("You already have a Keyport account");
    expect(mail?.text).toContain(`tried to create a Keyport account for ${to}`);
    const row = await db.mailMessage.findFirstOrThrow({ where: { recipient: to } });
    expect(row.sentAt).not.toBeNull();
    expect(row.error).toBeNull();
  });

  it("queues the same kind, subject and period once", async () => {
    const to = address();
    expect(await accountExists(to)).toBe(true);
    expect(await accountExists(to)).toBe(false);
    expect(await db.mailMessage.count({ where: { recipient: to } })).toBe(1);
    await drainMail();
    expect(smtp.to(to)).toHaveLength(1);
  });

  it("sends each message exactly once when two instances run at the same time", async () => {
    const recipients = Array.from({ length: 12 }, address);
    for (const to of recipients) await accountExists(to);
    await drainMail(new Date(), ["a", "b"]);
    for (const to of recipients) expect(smtp.to(to)).toHaveLength(1);
    const rows = await db.mailMessage.findMany({ where: { recipient: { in: recipients } } });
    expect(rows.every((row) => row.sentAt && (row.claimedBy === "a" || row.claimedBy === "b"))).toBe(true);
  });

  it("keeps a link sealed in the database before sending and clears it after", async () => {
    const to = address();
    const token = randomBytes(24).toString("base64url");
    const link = `http://localhost:3000/reset-password/${token}`;
    await queueMail(db, { kind: "password_reset", subject: to, to, data: { email: to }, link });
    const queued = await db.mailMessage.findFirstOrThrow({ where: { recipient: to } });
    expect(queued.sealedLink).toBeTruthy();
    expect(JSON.stringify(queued)).not.toContain(token);

    await drainMail();
    const [mail] = smtp.to(to);
    expect(mail && linkIn(mail, "http://localhost:3000/reset-password/")).toBe(link);
    const sent = await db.mailMessage.findFirstOrThrow({ where: { recipient: to } });
    expect(sent.sealedLink).toBeNull();
    expect(JSON.stringify(sent)).not.toContain(token);
  });

  it("leaves a message queued while the SMTP server is down and delivers it once it is up", async () => {
    const to = address();
    await accountExists(to);
    process.env.SMTP_URL = `smtp://127.0.0.1:${await closedPort()}`;
    try {
      const result = await runMailJob(new Date(), db, "a");
      expect(result.failed).toBeGreaterThan(0);
      const row = await db.mailMessage.findFirstOrThrow({ where: { recipient: to } });
      expect(row).toMatchObject({ claimedAt: null, sentAt: null });
      expect(row.error).toBeTruthy();
    } finally {
      process.env.SMTP_URL = smtp.url;
    }
    await drainMail();
    expect(smtp.to(to)).toHaveLength(1);
    expect((await db.mailMessage.findFirstOrThrow({ where: { recipient: to } })).sentAt).not.toBeNull();
  });

  it("writes an .eml file to the development outbox when there is no SMTP server", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-outbox-"));
    const to = address();
    delete process.env.SMTP_URL;
    process.env.MAIL_OUTBOX_DIR = dir;
    try {
      await accountExists(to);
      await drainMail();
      const files = readdirSync(dir).filter((file) => file.endsWith(".eml"));
      const mine = files.map((file) => readFileSync(path.join(dir, file), "utf8")).filter((eml) => eml.includes(to));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toContain("Subject: You already have a Keyport account");
      expect(smtp.to(to)).toHaveLength(0);
    } finally {
      process.env.SMTP_URL = smtp.url;
      delete process.env.MAIL_OUTBOX_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
