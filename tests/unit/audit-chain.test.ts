// lib/audit-chain.ts's checks that need no database: a row whose time is not a
// time (SQLite keeps any text in a DATETIME column) is named, not a crash.
import { describe, expect, it } from "vitest";
import { chainHash, headSeal, keyedHash, verifyChain, type ChainedRow } from "@/lib/audit-chain";

const KEY = Buffer.alloc(32, 7);
const USER = "user_1";

function chain(count: number) {
  const rows: (ChainedRow & { hash: string })[] = [];
  let previous = "";
  for (let seq = 1; seq <= count; seq++) {
    const row = {
      seq,
      action: "auth.sign_in",
      keyId: null,
      ip: null,
      userAgent: null,
      details: null,
      createdAt: new Date(0),
    };
    previous = keyedHash(KEY, previous, USER, row);
    rows.push({ ...row, hash: previous });
  }
  return { rows, head: { seq: count, hash: previous, seal: headSeal(KEY, USER, { seq: count, hash: previous }) } };
}

describe("verifyChain", () => {
  it("passes a signed chain, an empty one too (the controls)", () => {
    const { rows, head } = chain(3);
    expect(verifyChain(USER, rows, head, KEY)).toBeNull();
    expect(
      verifyChain(USER, [], { seq: 0, hash: "", seal: headSeal(KEY, USER, { seq: 0, hash: "" }) }, KEY),
    ).toBeNull();
  });

  it("names a row whose time is not a time instead of failing on it", () => {
    const { rows, head } = chain(3);
    rows[1] = { ...rows[1]!, createdAt: "garbage" };
    expect(verifyChain(USER, rows, head, KEY)).toEqual({
      seq: 2,
      problem: "changed",
      message: "row 2 was changed: its time is not a time",
    });
    // Unkeyed, as an export from before the switch is checked.
    const plain = { ...rows[0]!, createdAt: "garbage" };
    plain.hash = chainHash("", USER, { ...plain, createdAt: new Date(0) });
    expect(verifyChain(USER, [plain], { seq: 1, hash: plain.hash, seal: "" }, null)?.message).toBe(
      "row 1 was changed: its time is not a time",
    );
  });

  it("reports an empty chain without its seal as unsigned", () => {
    expect(verifyChain(USER, [], { seq: 0, hash: "", seal: "" }, KEY)?.problem).toBe("unsigned");
  });
});
