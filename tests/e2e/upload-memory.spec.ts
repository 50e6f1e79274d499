// Uploads are streamed to disk: a fresh production server takes four
// concurrent 20 MiB uploads and its peak resident memory grows by less than
// two body sizes, half of what holding each body once would take (80 MiB).
// (Buffered whole and copied again, eight of them once took a server from 396
// to 832 MB.) Streamed, the growth is the chunks that have passed and wait for
// the collector: 3.5 to 10 MiB alone, up to 22 MiB in a busy full suite on a
// slower machine, so one body size was a line the collector's timing crossed.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { newUserWithKey } from "./helpers";

const MiB = 1024 * 1024;
const BODY_LIMIT = 20 * MiB;
const root = process.cwd();

/** The kernel's own figures for a process: resident now, and its high-water mark. */
function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** Waits until the process's resident memory moves by less than 1 MiB over half a second, for at most 15 s. */
async function settled(pid: number) {
  let last = memory(pid).rss;
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = memory(pid).rss;
    if (Math.abs(now - last) < MiB) return;
    last = now;
  }
}

async function startServer(port: number, dir: string): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: `file:${path.join(dir, "memory.db")}`,
    FILES_DIR: path.join(dir, "files"),
    // No SMTP: the sign-up link goes to this server's own outbox, where the test reads it.
    MAIL_OUTBOX_DIR: path.join(dir, "outbox"),
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    AUTH_SECRET: process.env.E2E_AUTH_SECRET,
    ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY,
    BODY_LIMIT_UPLOAD_BYTES: String(BODY_LIMIT),
    SIGN_UP_LIMIT_PER_HOUR: "100",
    UPLOADS_PER_KEY: "4",
    WORKER_DISABLED: "1",
  };
  execFileSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], { env, stdio: "ignore" });
  const server = spawn(process.execPath, [path.join(root, "server.mjs")], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://localhost:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error("the server did not start");
}

function uploadBody(size: number): { body: Uint8Array; boundary: string } {
  const boundary = "memory-test";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const content = Buffer.alloc(size - head.length - tail.length, 0x61);
  return { body: Buffer.concat([Buffer.from(head), content, Buffer.from(tail)]), boundary };
}

test("four concurrent 20 MiB uploads leave the server's peak memory within two body sizes", async ({ page }) => {
  test.setTimeout(120_000);
  const port = 3231;
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-memory-"));
  const server = await startServer(port, dir);
  try {
    // A key on this server: sign up and create one in its dashboard.
    const base = `http://localhost:${port}`;
    const secret = await newUserWithKey(page, "memory", base, path.join(dir, "outbox"));
    const send = (body: Uint8Array, boundary: string) =>
      fetch(`${base}/api/v1/files`, {
        method: "POST",
        headers: { Authorization: `Bearer ${secret}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
        body: body as BodyInit,
      });
    // Warm up the upload path, so what is measured is the uploads and not code loading.
    const small = uploadBody(64 * 1024);
    expect((await send(small.body, small.boundary)).status).toBe(200);
    // The dashboard's page is left, so nothing it prefetches loads more of Next's code during the uploads, and
    // the server is let settle: its resident memory steady over half a second (or 15 s at most).
    await page.goto("about:blank");
    await settled(server.pid!);
    const before = memory(server.pid!);

    const big = uploadBody(BODY_LIMIT);
    let highest = before.rss;
    const sampler = setInterval(() => (highest = Math.max(highest, memory(server.pid!).rss)), 10);
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(big.body, big.boundary)));
    clearInterval(sampler);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect((await answer.json()).bytes).toBe(BODY_LIMIT - uploadOverhead(big.boundary));
    }
    const after = memory(server.pid!);
    const growth = after.peak - before.peak;
    console.log(
      `upload memory: peak ${Math.round(before.peak / MiB)} -> ${Math.round(after.peak / MiB)} MiB (growth ${(growth / MiB).toFixed(1)} MiB, ${(growth / BODY_LIMIT).toFixed(2)} of one body); highest sampled RSS ${Math.round(highest / MiB)} MiB from ${Math.round(before.rss / MiB)} MiB`,
    );
    expect(growth).toBeLessThan(2 * BODY_LIMIT);
  } finally {
    // Its folder goes once it has stopped: a shutdown still writes (usage, the outbox) until then.
    const exited =
      server.exitCode === null && server.signalCode === null
        ? new Promise((resolve) => server.once("exit", resolve))
        : Promise.resolve();
    server.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});

function uploadOverhead(boundary: string): number {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  return head.length + tail.length;
}
