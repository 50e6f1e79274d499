import { afterEach, describe, expect, it, vi } from "vitest";
import { flushLog, log } from "@/lib/log";

function captureStdout() {
  const writes: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  });
  return { writes, restore: () => spy.mockRestore() };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => flushLog());

describe("the log", () => {
  it("writes a turn's info lines together, in order, once the turn is over", async () => {
    const out = captureStdout();
    try {
      log.info("test.first", { n: 1 });
      log.info("test.second", { n: 2 });
      log.info("test.third", { n: 3 });
      expect(out.writes).toEqual([]);
      await nextTurn();
      expect(out.writes).toHaveLength(1);
      const events = out.writes[0]!.trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(events.map((e) => [e.level, e.event, e.n])).toEqual([
        ["info", "test.first", 1],
        ["info", "test.second", 2],
        ["info", "test.third", 3],
      ]);
    } finally {
      out.restore();
    }
  });

  it("never holds more than 256 lines", () => {
    const out = captureStdout();
    try {
      for (let i = 0; i < 256; i++) log.info("test.many", { i });
      expect(out.writes).toHaveLength(1);
      expect(out.writes[0]!.trimEnd().split("\n")).toHaveLength(256);
    } finally {
      out.restore();
    }
  });

  it("writes warnings and errors at once, and redacts fields named like secrets", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      log.warn("test.warned", { api_key: "sk_dev_not_a_real_one", key_id: "key_1" });
      log.error("test.failed", { password: "hunter2" });
      expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({ api_key: "[redacted]", key_id: "key_1" });
      expect(JSON.parse(String(error.mock.calls[0]![0]))).toMatchObject({ password: "[redacted]" });
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
