// A flood of odd requests against a running production server, counted by
// answer: the "no 5xx from a request" check of issue 30. Run by hand, never
// in the suite (it takes minutes and a server of its own):
//
//   npx tsx scripts/odd-flood.mts http://localhost:3000 [count] [concurrency] [seed]
//
// Categories (docs/operations.md, "Database connections"): the image
// optimizer; server-action posts Next cannot decode (no field 0, garbage,
// mutated real bodies, references to missing fields, unreadable bound
// arguments, a wrong boundary, over 1 MiB); bursts of 12 real sign-ups from
// one address (database writes and password hashing at once); the public API
// with a real key (FLOOD_API_KEY, optional), unknown well-formed keys and
// none; pages that look up a session; and random bytes in the method, the
// path, the headers and multipart bodies. Prints the answers by category and
// status, each 503 with or without Retry-After, and exits 1 if any answer
// was 500 or 502 (or none came within 30 s). With FLOOD_SAVE_DIR set, each
// request answered 500 or 502 is written there as it was sent, to replay.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  apiRequest,
  imageRequest,
  malformedActionRequest,
  randomBytesRequest,
  seededRandom,
  sessionPageRequest,
  signUpBody,
  type FloodContext,
  type Random,
} from "./odd-flood/odd-requests.mjs";
import { httpRequest, sendRaw, type RawAnswer } from "./odd-flood/raw-request.mjs";

const [base = "http://localhost:3000", countText = "10000", concurrencyText = "16", seedText = "30"] =
  process.argv.slice(2);
const target = new URL(base);
const port = Number(target.port || 80);
const total = Number(countText);
const concurrency = Number(concurrencyText);
const seed = Number(seedText);
const BURST = 12;

/** The action ids a page names for its forms (what a browser without script posts). */
async function actionIdsOf(path: string): Promise<string[]> {
  const html = await (await fetch(new URL(path, base))).text();
  return [...html.matchAll(/\{&quot;id&quot;:&quot;([0-9a-f]{40,})&quot;/g)].map((match) => match[1]!);
}

const signUpIds = await actionIdsOf("/sign-up");
const signInIds = await actionIdsOf("/sign-in");
if (signUpIds.length === 0 || signInIds.length === 0) throw new Error(`no server action named on ${base}'s forms`);
const context: FloodContext = {
  host: target.host,
  actionIds: [...signUpIds, ...signInIds],
  signUpActionId: signUpIds[0]!,
  apiKey: process.env.FLOOD_API_KEY,
  seed,
};

type Category = "image" | "action" | "signup-burst" | "api" | "session-page" | "random-bytes";
const counts = new Map<Category, Map<string, number>>();
let unavailableWithoutRetryAfter = 0;
const saveDir = process.env.FLOOD_SAVE_DIR;
if (saveDir) mkdirSync(saveDir, { recursive: true });
let saved = 0;
function count(category: Category, answer: RawAnswer, request: Buffer) {
  if (saveDir && (answer.status === 500 || answer.status === 502)) {
    writeFileSync(path.join(saveDir, `${category}-${answer.status}-${saved++}.http`), request);
  }
  const byStatus = counts.get(category) ?? new Map<string, number>();
  counts.set(category, byStatus);
  const key = String(answer.status);
  byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  if (answer.status === 503 && !answer.retryAfter) unavailableWithoutRetryAfter++;
}

const generators: [Category, number, (random: Random, context: FloodContext) => Buffer][] = [
  ["image", 0.1, imageRequest],
  ["action", 0.3, malformedActionRequest],
  ["api", 0.2, apiRequest],
  ["session-page", 0.1, sessionPageRequest],
  ["random-bytes", 0.25, randomBytesRequest],
];
const BURST_SHARE = 0.05;

let sent = 0;
let bursts = 0;
async function worker(random: Random) {
  while (sent < total) {
    const roll = random();
    if (roll < BURST_SHARE / BURST && sent + BURST <= total) {
      sent += BURST;
      const burst = bursts++;
      const requests = Array.from({ length: BURST }, (_, i) => {
        const body = signUpBody(`flood-${seed}-${burst}-${i}@example.com`, context.signUpActionId);
        const headers: [string, string][] = [
          ["Next-Action", context.signUpActionId],
          ["Content-Type", "multipart/form-data; boundary=----FloodBoundary"],
        ];
        return httpRequest("POST", "/sign-up", context.host, headers, body);
      });
      const answers = await Promise.all(requests.map((request) => sendRaw(target.hostname, port, request)));
      answers.forEach((answer, i) => count("signup-burst", answer, requests[i]!));
      continue;
    }
    sent++;
    let share = random();
    const [category, , make] = generators.find(([, weight]) => (share -= weight) < 0) ?? generators[0]!;
    const request = make(random, context);
    count(category, await sendRaw(target.hostname, port, request), request);
    if (sent % 1000 === 0) console.error(`odd-flood: ${sent} sent`);
  }
}

const started = Date.now();
await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(seededRandom(seed * 1000 + i))));

const table: Record<string, Record<string, number>> = {};
const totals = new Map<string, number>();
for (const [category, byStatus] of counts) {
  table[category] = Object.fromEntries([...byStatus].sort());
  for (const [status, n] of byStatus) totals.set(status, (totals.get(status) ?? 0) + n);
}
table.all = Object.fromEntries([...totals].sort());
console.log(`odd-flood: ${sent} requests to ${base} in ${Math.round((Date.now() - started) / 1000)} s (seed ${seed})`);
console.table(table);
console.log(`503 without Retry-After: ${unavailableWithoutRetryAfter}`);
const failed = (totals.get("500") ?? 0) + (totals.get("502") ?? 0) + (totals.get("timeout") ?? 0);
process.exit(failed > 0 ? 1 : 0);
