// What the dashboard reads of a key's usage: the stacked counts per range, the
// top routes and IPs, the request log with its filters and pages, the list's
// 24-hour counts and the streamed CSV; all scoped to the key's owner. Rows go
// in through the app's usage writer, as the gate's buffer writes them, so the
// aggregates and the log agree.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { db } from "@/lib/db";
import { createKey } from "@/lib/keys/lifecycle";
import { CSV_HEADER, usageCsvStream } from "@/lib/usage/csv-export";
import { hourOf, type UsageEvent } from "@/lib/usage/event";
import { getKeyUsage, listRequests, REQUEST_LOG_PAGE_SIZE, requestsLast24h } from "@/lib/usage/queries";
import { writeUsage } from "../helpers/usage-writer";
import { personalTeamId } from "../helpers/teams";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);

interface Owner {
  userId: string;
}
interface TestKey {
  publicId: string;
  rowId: string;
  userId: string;
}

async function newUser(label: string): Promise<Owner> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await createAccount(email, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  return { userId: user.userId };
}

async function newKey(owner: Owner, label: string): Promise<TestKey> {
  const issued = await createKey(
    { userId: owner.userId, ip: null, userAgent: null },
    {
      label,
      environment: "dev",
      expiresAt: null,
      restrictions: { scopes: "all", allowedIps: null, rateLimit: null },
    },
  );
  const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: issued.key.id }, select: { id: true } });
  return { publicId: issued.key.id, rowId: row.id, userId: owner.userId };
}

let sequence = 0;
function event(key: TestKey, at: Date, fields: Partial<UsageEvent> = {}): UsageEvent {
  sequence++;
  return {
    requestId: `req_q${String(sequence).padStart(6, "0")}_${key.rowId}`,
    keyId: key.rowId,
    userId: key.userId,
    route: "list_models",
    status: 200,
    errorCode: null,
    latencyMs: 12,
    ip: "203.0.113.9",
    userAgent: "usage-queries/1.0",
    createdAt: at,
    ...fields,
  };
}

let owner: Owner;
let stranger: Owner;
let main: TestKey;
let quiet: TestKey;
let strangers: TestKey;

beforeAll(async () => {
  owner = await newUser("usage-owner");
  stranger = await newUser("usage-stranger");
  main = await newKey(owner, "main");
  quiet = await newKey(owner, "quiet");
  strangers = await newKey(stranger, "not yours");
  await writeUsage([
    // The last hour: 3 x 2xx, a 4xx and a 5xx.
    event(main, ago(10 * MINUTE)),
    event(main, ago(10 * MINUTE)),
    event(main, ago(9 * MINUTE), { ip: "198.51.100.7" }),
    event(main, ago(8 * MINUTE), {
      route: "create_chat_completion",
      status: 403,
      errorCode: "insufficient_scope",
    }),
    event(main, ago(7 * MINUTE), { route: "create_chat_completion", status: 500, errorCode: "internal_error" }),
    // Three hours ago: 2 x 2xx.
    event(main, ago(3 * HOUR), { route: "get_app" }),
    event(main, ago(3 * HOUR), { route: "get_app", ip: "198.51.100.7" }),
    // Three days ago: 4 x 2xx and a 429.
    ...Array.from({ length: 4 }, () => event(main, ago(3 * DAY))),
    event(main, ago(3 * DAY), { route: "create_message", status: 429, errorCode: "rate_limited" }),
    // Twenty days ago: 2 x 2xx; forty days ago: 1 (in no range).
    event(main, ago(20 * DAY), { ip: "192.0.2.1" }),
    event(main, ago(20 * DAY), { ip: "192.0.2.1" }),
    event(main, ago(40 * DAY)),
    // Another key of the owner's, and a stranger's key: never counted with main.
    event(quiet, ago(5 * MINUTE)),
    event(quiet, ago(2 * DAY)),
    event(strangers, ago(5 * MINUTE)),
  ]);
});

describe("getKeyUsage", () => {
  it("counts the last 24 hours in hourly buckets, stacked by status class", async () => {
    const usage = (await getKeyUsage(await personalTeamId(owner.userId), main.publicId, "24h", now))!;
    expect(usage.buckets).toHaveLength(24);
    expect(usage.totals).toEqual({ "2xx": 5, "4xx": 1, "5xx": 1, total: 7 });
    const first = hourOf(now) - 23;
    expect(hourOf(usage.buckets[0]!.start)).toBe(first);
    const threeHoursAgo = usage.buckets[hourOf(ago(3 * HOUR)) - first]!;
    expect(threeHoursAgo["2xx"]).toBe(2);
    const sum = usage.buckets.reduce((total, b) => total + b["2xx"] + b["4xx"] + b["5xx"], 0);
    expect(sum).toBe(7);
  });

  it("counts 7 and 30 days in daily buckets, today last", async () => {
    const week = (await getKeyUsage(await personalTeamId(owner.userId), main.publicId, "7d", now))!;
    expect(week.buckets).toHaveLength(7);
    expect(week.totals).toEqual({ "2xx": 9, "4xx": 2, "5xx": 1, total: 12 });
    const today = Math.floor(now.getTime() / DAY);
    expect(week.buckets[6]!.start.getTime()).toBe(today * DAY);
    expect(week.buckets[3]).toMatchObject({ "2xx": 4, "4xx": 1, "5xx": 0 });

    const month = (await getKeyUsage(await personalTeamId(owner.userId), main.publicId, "30d", now))!;
    expect(month.buckets).toHaveLength(30);
    expect(month.totals).toEqual({ "2xx": 11, "4xx": 2, "5xx": 1, total: 14 });
  });

  it("ranks routes and client IPs with their share of the range's requests", async () => {
    const week = (await getKeyUsage(await personalTeamId(owner.userId), main.publicId, "7d", now))!;
    expect(week.topRoutes).toEqual([
      { value: "list_models", count: 7, share: 7 / 12 },
      { value: "create_chat_completion", count: 2, share: 2 / 12 },
      { value: "get_app", count: 2, share: 2 / 12 },
      { value: "create_message", count: 1, share: 1 / 12 },
    ]);
    expect(week.topIps).toEqual([
      { value: "203.0.113.9", count: 10, share: 10 / 12 },
      { value: "198.51.100.7", count: 2, share: 2 / 12 },
    ]);
    const month = (await getKeyUsage(await personalTeamId(owner.userId), main.publicId, "30d", now))!;
    expect(month.topIps.map((ip) => ip.value)).toEqual(["203.0.113.9", "192.0.2.1", "198.51.100.7"]);
  });

  it("finds nothing for another user's key, even by its real id", async () => {
    expect(await getKeyUsage(await personalTeamId(stranger.userId), main.publicId, "7d", now)).toBeNull();
    expect(await getKeyUsage(await personalTeamId(owner.userId), strangers.publicId, "7d", now)).toBeNull();
    expect(await getKeyUsage(await personalTeamId(owner.userId), "key_NoSuchKeyHere000", "7d", now)).toBeNull();
  });
});

describe("listRequests", () => {
  it("lists the range's requests newest first, with every field of a row", async () => {
    const log = (await listRequests(await personalTeamId(owner.userId), main.publicId, { range: "24h" }, now))!;
    expect(log.total).toBe(7);
    expect(log.items.map((row) => row.createdAt.getTime())).toEqual(
      [...log.items.map((row) => row.createdAt.getTime())].sort((a, b) => b - a),
    );
    expect(log.items[0]).toEqual({
      requestId: expect.stringMatching(/^req_q/),
      createdAt: ago(7 * MINUTE),
      route: "create_chat_completion",
      status: 500,
      errorCode: "internal_error",
      latencyMs: 12,
      ip: "203.0.113.9",
      userAgent: "usage-queries/1.0",
    });
  });

  it("filters by status class and by route", async () => {
    const clientErrors = (await listRequests(
      await personalTeamId(owner.userId),
      main.publicId,
      { range: "7d", filter: { statusClass: "4xx" } },
      now,
    ))!;
    expect(clientErrors.items.map((row) => `${row.status} ${row.errorCode}`)).toEqual([
      "403 insufficient_scope",
      "429 rate_limited",
    ]);
    const ok = (await listRequests(
      await personalTeamId(owner.userId),
      main.publicId,
      { range: "7d", filter: { statusClass: "2xx" } },
      now,
    ))!;
    expect(ok.total).toBe(9);
    const apps = (await listRequests(
      await personalTeamId(owner.userId),
      main.publicId,
      { range: "7d", filter: { route: "get_app" } },
      now,
    ))!;
    expect(apps.items.map((row) => row.route)).toEqual(["get_app", "get_app"]);
    const both = (await listRequests(
      await personalTeamId(owner.userId),
      main.publicId,
      { range: "7d", filter: { route: "create_chat_completion", statusClass: "5xx" } },
      now,
    ))!;
    expect(both.items.map((row) => row.status)).toEqual([500]);
  });

  it("pages 25 at a time and clamps a page past the end", async () => {
    const busy = await newKey(owner, "busy");
    await writeUsage(Array.from({ length: 30 }, (_, i) => event(busy, ago((i + 1) * MINUTE))));
    const first = (await listRequests(await personalTeamId(owner.userId), busy.publicId, { range: "24h" }, now))!;
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 30 });
    expect(first.items).toHaveLength(REQUEST_LOG_PAGE_SIZE);
    const second = (await listRequests(
      await personalTeamId(owner.userId),
      busy.publicId,
      { range: "24h", page: 2 },
      now,
    ))!;
    expect(second.items).toHaveLength(5);
    expect(second.items[4]!.createdAt).toEqual(ago(30 * MINUTE));
    const ids = new Set([...first.items, ...second.items].map((row) => row.requestId));
    expect(ids.size).toBe(30);
    const past = (await listRequests(
      await personalTeamId(owner.userId),
      busy.publicId,
      { range: "24h", page: 99 },
      now,
    ))!;
    expect(past.page).toBe(2);
  });

  it("finds nothing for another user's key", async () => {
    expect(await listRequests(await personalTeamId(stranger.userId), main.publicId, { range: "30d" }, now)).toBeNull();
  });
});

describe("requestsLast24h", () => {
  it("counts each of the user's keys in one grouped query, zero for a quiet key, nothing for another user's", async () => {
    const idle = await newKey(owner, "idle");
    const counts = await requestsLast24h(
      await personalTeamId(owner.userId),
      [main.publicId, quiet.publicId, idle.publicId, strangers.publicId, "key_NoSuchKeyHere000"],
      now,
    );
    expect(counts).toEqual({ [main.publicId]: 7, [quiet.publicId]: 1, [idle.publicId]: 0 });
    expect(await requestsLast24h(await personalTeamId(stranger.userId), [main.publicId], now)).toEqual({});
    expect(await requestsLast24h(await personalTeamId(owner.userId), [], now)).toEqual({});
  });
});

/** RFC 4180, as far as the export writes it: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += char;
    } else if (char === ",") {
      endCell();
    } else if (char === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else {
      cell += char;
    }
  }
  expect(cell).toBe("");
  return rows;
}

async function readChunks(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value));
  return chunks;
}

describe("usageCsvStream", () => {
  it("streams the range's requests in pages, newest first, quoted and with formulas defused", async () => {
    const exported = await newKey(owner, "exported");
    const tie = ago(4 * MINUTE);
    const formula = '=HYPERLINK("http://evil.example","click")';
    const events = [
      event(exported, ago(1 * MINUTE), { userAgent: formula }),
      event(exported, ago(2 * MINUTE), { userAgent: 'curl, "quoted"', route: "get_app" }),
      // Two at the same moment, either side of a page boundary: the cursor keeps both.
      event(exported, tie, { userAgent: "@attacker", status: 401, errorCode: "revoked_api_key" }),
      event(exported, tie, { userAgent: null }),
      event(exported, ago(5 * MINUTE), { userAgent: "-2+3" }),
      event(exported, ago(8 * DAY)),
    ];
    await writeUsage(events);

    const stream = await usageCsvStream(
      await personalTeamId(owner.userId),
      exported.publicId,
      { range: "7d", pageSize: 2 },
      now,
    );
    const chunks = await readChunks(stream!);
    // The header, then one chunk per page of at most two rows: read a page at a time.
    expect(chunks).toHaveLength(4);
    expect(chunks.slice(1).map((chunk) => chunk.split("\r\n").length - 1)).toEqual([2, 2, 1]);

    const [header, ...rows] = parseCsv(chunks.join(""));
    expect(header).toEqual([...CSV_HEADER]);
    expect(rows.map((row) => row[1])).toEqual(
      [
        events[0]!,
        events[1]!,
        ...[events[2]!, events[3]!].sort((a, b) => (a.requestId < b.requestId ? 1 : -1)),
        events[4]!,
      ].map((e) => e.requestId),
    );
    const byId = new Map(rows.map((row) => [row[1], row]));
    expect(byId.get(events[0]!.requestId)).toEqual([
      ago(1 * MINUTE).toISOString(),
      events[0]!.requestId,
      "list_models",
      "200",
      "",
      "12",
      "203.0.113.9",
      `'${formula}`,
    ]);
    expect(byId.get(events[1]!.requestId)![7]).toBe('curl, "quoted"');
    expect(byId.get(events[2]!.requestId)!.slice(3, 5)).toEqual(["401", "revoked_api_key"]);
    expect(byId.get(events[2]!.requestId)![7]).toBe("'@attacker");
    expect(byId.get(events[3]!.requestId)![7]).toBe("");
    expect(byId.get(events[4]!.requestId)![7]).toBe("'-2+3");
    // The raw text quotes the formula and doubles its quotes.
    expect(chunks.join("")).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
  });

  it("applies the log's filters, and gives a header alone when nothing matches", async () => {
    const filtered = await usageCsvStream(
      await personalTeamId(owner.userId),
      main.publicId,
      { range: "7d", filter: { statusClass: "4xx" } },
      now,
    );
    const rows = parseCsv((await readChunks(filtered!)).join(""));
    expect(rows.slice(1).map((row) => row[3])).toEqual(["403", "429"]);
    const empty = await usageCsvStream(
      await personalTeamId(owner.userId),
      main.publicId,
      { range: "7d", filter: { route: "nope" } },
      now,
    );
    expect(parseCsv((await readChunks(empty!)).join(""))).toEqual([[...CSV_HEADER]]);
  });

  it("gives nothing for another user's key", async () => {
    expect(
      await usageCsvStream(await personalTeamId(stranger.userId), main.publicId, { range: "30d" }, now),
    ).toBeNull();
  });
});
