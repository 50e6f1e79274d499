// Uploads within limits that hold: a storage quota per account, a bound on
// uploads in progress per key, and names that are cleaned before they are kept.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { filesRoot } from "@/lib/files/store";
import { FILENAME_MAX_LENGTH } from "@/lib/public-api/file-schemas";
import { handlePublicRequest } from "@/lib/public-api/app-gate";
import { callApi, makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";

vi.hoisted(() => {
  process.env.BODY_LIMIT_UPLOAD_BYTES = String(64 * 1024);
  process.env.FILES_QUOTA_BYTES = String(100 * 1024);
  process.env.UPLOADS_PER_KEY = "1";
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "100000";
});

const uploadRoute = publicRoutes.find((r) => r.name === "upload_file")!;
const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
const BOUNDARY = "keyport-test-boundary";

/** A multipart body by hand, so the test controls Content-Length and the bytes. */
function multipart(content: Uint8Array, filename = "data.bin", purpose?: string): Uint8Array {
  const head =
    (purpose === undefined
      ? ""
      : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`) +
    // RFC 5987's encoded form: any character can be sent, control characters included.
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(filename)}\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${BOUNDARY}--\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(tail)]);
}

function upload(key: string, body: Uint8Array, declare = true) {
  return callApi(uploadRoute, {
    headers: {
      ...auth(key),
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      ...(declare ? { "content-length": String(body.byteLength) } : {}),
    },
    body: body as BodyInit,
  });
}

function leftovers(userId: string) {
  const own = path.join(filesRoot(), userId);
  const incoming = path.join(filesRoot(), ".incoming");
  return {
    stored: existsSync(own) ? readdirSync(own).length : 0,
    incoming: existsSync(incoming) ? readdirSync(incoming).length : 0,
  };
}

let alice: KeyFixtures;
beforeAll(async () => {
  alice = await makeKeyFixtures();
});

describe("the storage quota", () => {
  it("refuses an upload past the account's quota with 413 storage_quota_exceeded, writing nothing", async () => {
    const first = await upload(alice.valid, multipart(new Uint8Array(60 * 1024).fill(1)));
    expect(first.status).toBe(200);
    const before = leftovers(alice.userId);
    const rows = await db.storedFile.count({ where: { userId: alice.userId } });

    // Declared: refused before a byte is read. Not declared: refused once its size is known, and removed.
    for (const declare of [true, false]) {
      const over = await upload(alice.valid, multipart(new Uint8Array(50 * 1024).fill(2)), declare);
      expect(over.status, `declared: ${declare}`).toBe(413);
      expect(over.json.error).toMatchObject({ code: "storage_quota_exceeded", type: "invalid_request_error" });
      expect(leftovers(alice.userId)).toEqual(before);
      expect(await db.storedFile.count({ where: { userId: alice.userId } })).toBe(rows);
    }
    // Both environments share it: the production key is refused too; a small file still fits.
    expect((await upload(alice.validProd, multipart(new Uint8Array(50 * 1024)))).status).toBe(413);
    expect((await upload(alice.validProd, multipart(new Uint8Array(30 * 1024)))).status).toBe(200);
  });
});

describe("names", () => {
  it("are kept without control or text-direction characters, and never name anything on disk", async () => {
    const bob = await makeKeyFixtures();
    const result = await upload(bob.valid, multipart(new TextEncoder().encode("x"), "../\u202Eevil\u0007.txt"));
    expect(result.status, result.text).toBe(200);
    // busboy keeps only the last path segment; the rest is cleaned out.
    expect(result.json.filename).toBe("evil.txt");
    const row = await db.storedFile.findUniqueOrThrow({ where: { id: result.json.id } });
    expect(row.storagePath).toBe(path.join(bob.userId, result.json.id));
  });

  it("refuse a purpose with control characters", async () => {
    const carol = await makeKeyFixtures();
    const result = await upload(carol.valid, multipart(new TextEncoder().encode("x"), "a.txt", "fine\u0007tuning"));
    expect(result.status).toBe(400);
    expect(result.json.error).toMatchObject({ code: "invalid_request", param: "purpose" });
    expect(leftovers(carol.userId)).toEqual({ stored: 0, incoming: leftovers(carol.userId).incoming });
  });
});

describe("a key sent as a file's name or purpose", () => {
  const x = () => new TextEncoder().encode("x");

  it("is refused with 400 api_key_misplaced naming the field, storing no row and no file", async () => {
    const dave = await makeKeyFixtures();
    const { incoming } = leftovers(dave.userId);
    const cases: [string, string | undefined, string][] = [
      [dave.valid, undefined, "file"],
      [`backup-${dave.valid}.txt`, undefined, "file"],
      // A control character is removed from the stored name: inside a key, it would leave the key whole.
      [`${dave.valid.slice(0, 20)}\u0007${dave.valid.slice(20)}.txt`, undefined, "file"],
      // Behind a key-shaped run ending in the real key's "sk": a global match would step past it.
      [`sk_dev_${"A".repeat(36)}${dave.valid}`, undefined, "file"],
      // Encodings an attack review sent: hex, base64 off its grid, the key split by a space.
      [`${Buffer.from(dave.valid).toString("hex")}.bin`, undefined, "file"],
      [`notes${Buffer.from(`x${dave.valid}`).toString("base64")}.txt`, undefined, "file"],
      [`${dave.valid.slice(0, 20)} ${dave.valid.slice(20)}.txt`, undefined, "file"],
      ["a.txt", dave.valid, "purpose"],
      ["a.txt", `for ${dave.validProd}`, "purpose"],
    ];
    for (const [filename, purpose, param] of cases) {
      const result = await upload(dave.valid, multipart(x(), filename, purpose));
      expect(result.status, filename).toBe(400);
      expect(result.json.error).toMatchObject({ code: "api_key_misplaced", type: "invalid_request_error", param });
      expect(result.text).not.toContain(dave.valid.slice(7));
    }
    expect(await db.storedFile.count({ where: { userId: dave.userId } })).toBe(0);
    expect(leftovers(dave.userId)).toEqual({ stored: 0, incoming });
    // Sent to us, not leaked: the key is not revoked, and an upload without a key in it is stored.
    expect((await upload(dave.valid, multipart(x(), "fine.txt"))).status).toBe(200);
  });

  it("is only a key when it passes the checksum: look-alikes are stored as sent", async () => {
    const erin = await makeKeyFixtures();
    const mistyped = erin.valid.slice(0, 10) + (erin.valid[10] === "A" ? "B" : "A") + erin.valid.slice(11);
    for (const [filename, purpose] of [
      ["sk_dev_notes2024.txt", "sk_dev_notes2024"],
      [`${mistyped}.txt`, mistyped],
    ] as const) {
      const result = await upload(erin.valid, multipart(x(), filename, purpose));
      expect(result.status, result.text).toBe(200);
      expect(result.json).toMatchObject({ filename, purpose });
    }
  });
});

describe("a file's name", () => {
  it(`is at most ${FILENAME_MAX_LENGTH} characters: a longer one is refused on its field, nothing stored`, async () => {
    const fred = await makeKeyFixtures();
    const body = new TextEncoder().encode("x");
    const longest = `${"n".repeat(FILENAME_MAX_LENGTH - 4)}.txt`;
    const tooLong = await upload(fred.valid, multipart(body, `n${longest}`));
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error).toMatchObject({
      code: "invalid_request",
      param: "file",
      message: `The file's name must be at most ${FILENAME_MAX_LENGTH} characters.`,
    });
    expect(await db.storedFile.count({ where: { userId: fred.userId } })).toBe(0);
    const fits = await upload(fred.valid, multipart(body, longest));
    expect(fits.status, fits.text).toBe(200);
    expect(fits.json).toMatchObject({ filename: longest });
  });
});

describe("uploads in progress", () => {
  it("are bounded per key: a second one at once is 429, another key of the account is not held up", async () => {
    const dave = await makeKeyFixtures();
    const body = multipart(new Uint8Array(8 * 1024).fill(7));
    // A body that arrives in two halves, the second only when the test says so.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(body.subarray(0, 4096));
        await released;
        controller.enqueue(body.subarray(4096));
        controller.close();
      },
    });
    const first = handlePublicRequest(
      new Request("http://localhost/api/v1/files", {
        method: "POST",
        headers: { ...auth(dave.valid), "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
        body: slow,
        // @ts-expect-error Node's fetch needs duplex for a streamed request body.
        duplex: "half",
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await upload(dave.valid, body);
    expect(second.status).toBe(429);
    expect(second.json.error.code).toBe("rate_limited");
    expect(second.json.error.message).toMatch(/already has 1 uploads? in progress/);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await upload(dave.validProd, body)).status).toBe(200);
    release();
    expect((await first).status).toBe(200);
    expect((await upload(dave.valid, body)).status).toBe(200);
  });
});
