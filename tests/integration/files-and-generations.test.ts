import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { filesRoot } from "@/lib/files/store";
import { generateApiKey } from "@/lib/keys/format";
import { createKey } from "@/lib/keys/lifecycle";
import { addMember, createTeam } from "@/lib/teams/members";
import { GenerationWorker, SANDBOX_FAILURE_MARKER } from "@/lib/generations/worker";
import { callApi, makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";

vi.hoisted(() => {
  process.env.BODY_LIMIT_UPLOAD_BYTES = String(64 * 1024);
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "100000";
});

let alice: KeyFixtures;
let bob: KeyFixtures;
beforeAll(async () => {
  alice = await makeKeyFixtures();
  bob = await makeKeyFixtures();
});

const route = (name: string) => publicRoutes.find((r) => r.name === name)!;
const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

function upload(key: string, form: FormData) {
  return callApi(route("upload_file"), { headers: auth(key), body: form });
}
function fileForm(content: string | Uint8Array, name = "notes.txt", purpose?: string) {
  const form = new FormData();
  form.set("file", new Blob([content as BlobPart], { type: "text/plain" }), name);
  if (purpose) form.set("purpose", purpose);
  return form;
}
function createGeneration(key: string, body: object, headers: Record<string, string> = {}) {
  return callApi(route("create_generation"), {
    headers: { ...auth(key), "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
function createAppGeneration(key: string, app: string, body: object, headers: Record<string, string> = {}) {
  return callApi(route("create_app_generation"), {
    headers: { ...auth(key), "content-type": "application/json", ...headers },
    path: `/api/v1/apps/${app}/generations`,
    body: JSON.stringify(body),
  });
}
const getGeneration = (key: string, id: string) =>
  callApi(route("get_generation"), { headers: auth(key), path: `/api/v1/generations/${id}` });
const getAppGeneration = (key: string, app: string, id: string) =>
  callApi(route("get_app_generation"), { headers: auth(key), path: `/api/v1/apps/${app}/generations/${id}` });

describe("POST /api/v1/files", () => {
  it("stores an upload owned by the key's user and environment", async () => {
    const { status, json } = await upload(alice.valid, fileForm("hello world", "notes.txt", "input"));
    expect(status).toBe(200);
    expect(json).toEqual({
      id: expect.stringMatching(/^file_[0-9A-Za-z]{24}$/),
      object: "file",
      bytes: 11,
      filename: "notes.txt",
      content_type: "text/plain",
      purpose: "input",
      created_at: expect.any(Number),
    });
    const row = await db.storedFile.findUniqueOrThrow({ where: { id: json.id } });
    expect(row).toMatchObject({ userId: alice.userId, environment: "dev" });
    expect(existsSync(path.join(filesRoot(), row.storagePath))).toBe(true);
  });

  it("refuses an empty file and a missing field with 400", async () => {
    const empty = await upload(alice.valid, fileForm(""));
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatchObject({ code: "invalid_request", param: "file" });
    const form = new FormData();
    form.set("other", "x");
    const missing = await upload(alice.valid, form);
    expect(missing.json.error).toMatchObject({ code: "invalid_request", param: "file" });
  });

  it("refuses a file over the limit with 413, leaving no file and no row", async () => {
    const rowsBefore = await db.storedFile.count();
    const dir = path.join(filesRoot(), alice.userId);
    const filesBefore = existsSync(dir) ? readdirSync(dir).length : 0;
    const result = await upload(alice.valid, fileForm(new Uint8Array(65 * 1024).fill(97), "big.bin"));
    expect(result.status).toBe(413);
    expect(result.json.error.code).toBe("payload_too_large");
    expect(await db.storedFile.count()).toBe(rowsBefore);
    expect(existsSync(dir) ? readdirSync(dir).length : 0).toBe(filesBefore);
  });
});

describe("generations", () => {
  const worker = () => new GenerationWorker({ db });

  it("are queued with 201, then run by a worker to succeeded with a deterministic output", async () => {
    const created = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "a lighthouse at dusk" });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      id: expect.stringMatching(/^gen_/),
      object: "generation",
      status: "queued",
      model: "aurora-image-2",
      app: null,
      prompt: "a lighthouse at dusk",
      created_at: expect.any(Number),
      output: null,
    });
    const running = worker();
    running.start();
    let result = await getGeneration(alice.valid, created.json.id);
    for (let i = 0; i < 50 && result.json.status !== "succeeded"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await getGeneration(alice.valid, created.json.id);
    }
    await running.stop();
    expect(result.json.status).toBe("succeeded");
    expect(result.json.completed_at - result.json.created_at).toBeLessThanOrEqual(5);
    expect(result.json.output).toMatchObject({
      type: "image/svg+xml",
      url: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
    });
    const again = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "a lighthouse at dusk" });
    await worker().drain();
    expect((await getGeneration(alice.valid, again.json.id)).json.output).toEqual(result.json.output);
  });

  it("fail with an error object when the sandbox is asked to", async () => {
    const created = await createGeneration(alice.valid, {
      model: "aurora-image-2",
      prompt: `oops ${SANDBOX_FAILURE_MARKER}`,
    });
    await worker().drain();
    const { json } = await getGeneration(alice.valid, created.json.id);
    expect(json).toMatchObject({
      status: "failed",
      output: null,
      error: { code: "sandbox_failure", message: expect.any(String) },
    });
  });

  it("survive a worker restart while queued, and an expired lease is taken up again", async () => {
    const queued = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "waiting" });
    const crashed = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "abandoned" });
    // A worker claimed "abandoned" and died: its lease ran out a second ago.
    await db.generation.update({
      where: { id: crashed.json.id },
      data: { status: "running", leaseOwner: "worker_dead", leaseExpiresAt: new Date(Date.now() - 1000), attempts: 1 },
    });
    const first = worker();
    first.start();
    await first.stop(); // stopped (maybe before it got far): nothing is lost
    await worker().drain();
    for (const id of [queued.json.id, crashed.json.id]) {
      expect((await getGeneration(alice.valid, id)).json.status).toBe("succeeded");
    }
    expect((await db.generation.findUniqueOrThrow({ where: { id: crashed.json.id } })).attempts).toBe(2);
  });

  it("are failed, not retried forever, after their worker died three times", async () => {
    const doomed = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "doomed" });
    await db.generation.update({
      where: { id: doomed.json.id },
      data: { status: "running", leaseOwner: "worker_dead", leaseExpiresAt: new Date(Date.now() - 1000), attempts: 3 },
    });
    await worker().drain();
    expect((await getGeneration(alice.valid, doomed.json.id)).json).toMatchObject({
      status: "failed",
      error: { code: "generation_abandoned" },
    });
  });

  it("leave a generation alone while another worker's lease is live", async () => {
    const held = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "held" });
    await db.generation.update({
      where: { id: held.json.id },
      data: { status: "running", leaseOwner: "worker_alive", leaseExpiresAt: new Date(Date.now() + 60_000) },
    });
    await worker().drain();
    expect((await db.generation.findUniqueOrThrow({ where: { id: held.json.id } })).status).toBe("running");
    await db.generation.delete({ where: { id: held.json.id } });
  });

  it("are processed exactly once by two workers on one database", async () => {
    await worker().drain(); // start from an empty queue
    const ids: string[] = [];
    for (let i = 0; i < 100; i++)
      ids.push((await createGeneration(alice.valid, { model: "aurora-image-2", prompt: `batch ${i}` })).json.id);
    const claims: string[] = [];
    const workers = [1, 2].map(
      (n) => new GenerationWorker({ db, id: `worker_${n}`, onClaim: (id) => void claims.push(id) }),
    );
    await Promise.all(workers.map((w) => w.drain()));
    expect(claims.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    const rows = await db.generation.findMany({ where: { id: { in: ids } } });
    expect(rows.every((row) => row.status === "succeeded" && row.attempts === 1)).toBe(true);
  });
});

describe("Idempotency-Key", () => {
  it("answers a retry with the same generation, and refuses the key with a different body", async () => {
    const headers = { "Idempotency-Key": `retry-${Date.now()}` };
    const first = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "once" }, headers);
    const retry = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "once" }, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.json.id).toBe(first.json.id);
    const mismatch = await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "twice" }, headers);
    expect(mismatch.status).toBe(422);
    expect(mismatch.json.error.code).toBe("idempotency_key_mismatch");
    // Scoped to the API key: another key may use the same Idempotency-Key.
    const otherKey = await createGeneration(alice.validProd, { model: "aurora-image-2", prompt: "twice" }, headers);
    expect(otherKey.status).toBe(201);
    expect(otherKey.headers.get("idempotent-replayed")).toBeNull();
  });

  it("works on the app route and forgets a key after 24 hours", async () => {
    const headers = { "Idempotency-Key": `app-${Date.now()}` };
    const first = await createAppGeneration(alice.valid, "poster-studio", { prompt: "poster" }, headers);
    expect((await createAppGeneration(alice.valid, "poster-studio", { prompt: "poster" }, headers)).json.id).toBe(
      first.json.id,
    );
    await db.idempotencyRecord.updateMany({
      where: { key: headers["Idempotency-Key"] },
      data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    const fresh = await createAppGeneration(alice.valid, "poster-studio", { prompt: "something else" }, headers);
    expect(fresh.status).toBe(201);
    expect(fresh.json.id).not.toBe(first.json.id);
  });
});

describe("a key sent as the Idempotency-Key", () => {
  /** The key with one character of its body changed: key-shaped, but the checksum fails. */
  const mistyped = (key: string) => key.slice(0, 10) + (key[10] === "A" ? "B" : "A") + key.slice(11);

  it("is refused with 400 api_key_misplaced on both routes, alone or inside a longer value, and nothing is stored", async () => {
    const generations = await db.generation.count();
    const records = await db.idempotencyRecord.count();
    const values = [
      alice.valid,
      `retry-${alice.valid}-1`,
      generateApiKey("prod"),
      encodeURIComponent(alice.valid).replace(/_/g, "%5F"),
      // Behind a key-shaped run ending in the real key's "sk": a global match would step past it.
      `sk_dev_${"A".repeat(36)}${alice.valid}`,
      // Encodings an attack review sent (hex, backwards, a \u escape).
      Buffer.from(alice.valid).toString("hex"),
      [...alice.valid].reverse().join(""),
      alice.valid.replace(/^s/, "\\u0073"),
    ];
    for (const value of values) {
      const headers = { "Idempotency-Key": value };
      for (const answer of [
        await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "p" }, headers),
        await createAppGeneration(alice.valid, "poster-studio", { prompt: "p" }, headers),
      ]) {
        expect(answer.status, value).toBe(400);
        expect(answer.json.error).toMatchObject({
          code: "api_key_misplaced",
          type: "invalid_request_error",
          param: "Idempotency-Key",
        });
        expect(answer.text).not.toContain(alice.valid.slice(7));
      }
    }
    expect(await db.generation.count()).toBe(generations);
    expect(await db.idempotencyRecord.count()).toBe(records);
    // Sent to us, not leaked: the key is not revoked and keeps working.
    expect(
      await db.apiKey.findFirst({ where: { userId: alice.userId, revokedAt: { not: null }, label: "valid" } }),
    ).toBeNull();
    expect((await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "p" })).status).toBe(201);
  });

  it("is only a key when it passes the checksum: look-alikes are kept as any other value", async () => {
    for (const value of ["sk_dev_notes2024", mistyped(alice.valid), `sk_prod_${"A".repeat(38)}`]) {
      const answer = await createGeneration(
        alice.valid,
        { model: "aurora-image-2", prompt: value },
        { "Idempotency-Key": value },
      );
      expect(answer.status, value).toBe(201);
      expect(await db.idempotencyRecord.count({ where: { key: value } })).toBe(1);
    }
  });
});

describe("a key inside the prompt", () => {
  it("is refused with 400 api_key_misplaced on both routes, and nothing is stored", async () => {
    const generations = await db.generation.count();
    const records = await db.idempotencyRecord.count();
    const prompts = [
      `a poster that says ${alice.valid}`,
      `decode this: ${Buffer.from(alice.valid).toString("base64")}`,
      `sk_dev_${"A".repeat(36)}${alice.valid}`,
    ];
    for (const [i, prompt] of prompts.entries()) {
      const headers = { "Idempotency-Key": `prompt-${Date.now()}-${i}` };
      for (const answer of [
        await createGeneration(alice.valid, { model: "aurora-image-2", prompt }, headers),
        await createAppGeneration(alice.valid, "poster-studio", { prompt }, headers),
      ]) {
        expect(answer.status, prompt).toBe(400);
        expect(answer.json.error).toMatchObject({ code: "api_key_misplaced", param: "prompt" });
        expect(answer.text).not.toContain(alice.valid.slice(7));
      }
    }
    expect(await db.generation.count()).toBe(generations);
    expect(await db.idempotencyRecord.count()).toBe(records);
    // A look-alike that fails the checksum is a prompt like any other (see the Idempotency-Key's look-alikes).
    expect((await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "sk_dev_notes2024" })).status).toBe(
      201,
    );
  });
});

describe("ownership", () => {
  it("another user's key gets 404 for a generation and cannot use the file as input", async () => {
    const file = await upload(alice.valid, fileForm("alice's"));
    const generation = await createGeneration(alice.valid, {
      model: "aurora-image-2",
      prompt: "mine",
      input_file_id: file.json.id,
    });
    expect(generation.status).toBe(201);
    expect(generation.json.input_file_id).toBe(file.json.id);

    const read = await getGeneration(bob.valid, generation.json.id);
    expect(read.status).toBe(404);
    expect(read.json.error.code).toBe("not_found");
    const steal = await createGeneration(bob.valid, {
      model: "aurora-image-2",
      prompt: "theirs",
      input_file_id: file.json.id,
    });
    expect(steal.status).toBe(404);
    expect(steal.json.error).toMatchObject({ code: "not_found", param: "input_file_id" });
  });

  it("any key of a team and environment reads what the team's other keys made, and uses their files", async () => {
    // Bob joins a team of Alice's: his key in it shares her team key's files and generations, not her personal ones.
    const operator = (userId: string) => ({ userId, ip: null, userAgent: "test", kind: "operator" as const });
    const team = await createTeam(operator(alice.userId), { name: `Shared ${Date.now()}` });
    await addMember(operator(bob.userId), team.id, bob.userId, "developer");
    const teamKey = async (userId: string) =>
      (await createKey(operator(userId), { label: "team", environment: "dev", expiresAt: null, teamId: team.id }))
        .secret;
    const [alicesTeamKey, bobsTeamKey] = [await teamKey(alice.userId), await teamKey(bob.userId)];
    const file = await upload(alicesTeamKey, fileForm("the team's"));
    const generation = await createGeneration(alicesTeamKey, {
      model: "aurora-image-2",
      prompt: "ours",
      input_file_id: file.json.id,
    });
    expect(generation.status).toBe(201);
    expect((await getGeneration(bobsTeamKey, generation.json.id)).status).toBe(200);
    const reuse = await createGeneration(bobsTeamKey, {
      model: "aurora-image-2",
      prompt: "also ours",
      input_file_id: file.json.id,
    });
    expect(reuse.status).toBe(201);
    // Alice's own key outside the team sees none of it: the team, not the person, owns it.
    expect((await getGeneration(alice.valid, generation.json.id)).status).toBe(404);
    const outside = await createGeneration(alice.valid, {
      model: "aurora-image-2",
      prompt: "x",
      input_file_id: file.json.id,
    });
    expect(outside.status).toBe(404);
  });

  it("a dev key cannot read what a prod key made, nor use its file", async () => {
    const prodFile = await upload(alice.validProd, fileForm("prod file"));
    const prodGeneration = await createGeneration(alice.validProd, { model: "aurora-image-2", prompt: "prod" });
    expect((await getGeneration(alice.valid, prodGeneration.json.id)).status).toBe(404);
    expect((await getGeneration(alice.validProd, prodGeneration.json.id)).status).toBe(200);
    const devWithProdFile = await createGeneration(alice.valid, {
      model: "aurora-image-2",
      prompt: "x",
      input_file_id: prodFile.json.id,
    });
    expect(devWithProdFile.status).toBe(404);
  });

  it("the app route answers 404 for another app's generation, and for an unknown app", async () => {
    const posterGeneration = await createAppGeneration(alice.valid, "poster-studio", { prompt: "poster" });
    expect(posterGeneration.json).toMatchObject({ app: "poster-studio", model: "aurora-image-2", status: "queued" });
    expect((await getAppGeneration(alice.valid, "poster-studio", posterGeneration.json.id)).status).toBe(200);
    expect((await getAppGeneration(alice.valid, "clip-teaser", posterGeneration.json.id)).status).toBe(404);
    expect((await getAppGeneration(alice.valid, "no-such-app", posterGeneration.json.id)).json.error).toMatchObject({
      code: "not_found",
      param: "app",
    });
    expect((await createAppGeneration(alice.valid, "no-such-app", { prompt: "x" })).status).toBe(404);
  });

  it("validates the request bodies", async () => {
    expect((await createGeneration(alice.valid, { prompt: "x" })).json.error).toMatchObject({
      code: "invalid_request",
      param: "model",
    });
    expect((await createGeneration(alice.valid, { model: "keyport-sandbox-mini", prompt: "x" })).json.error.param).toBe(
      "model",
    );
    expect((await createGeneration(alice.valid, { model: "aurora-image-2", prompt: "  " })).json.error.param).toBe(
      "prompt",
    );
    expect((await createAppGeneration(alice.valid, "poster-studio", {})).json.error.param).toBe("prompt");
    const badKey = await createGeneration(
      alice.valid,
      { model: "aurora-image-2", prompt: "x" },
      { "Idempotency-Key": "" },
    );
    expect(badKey.json.error).toMatchObject({ code: "invalid_request", param: "Idempotency-Key" });
  });
});

afterAll(async () => {
  await db.generation.deleteMany({ where: { userId: { in: [alice.userId, bob.userId] } } });
});
