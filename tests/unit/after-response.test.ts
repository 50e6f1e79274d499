import { afterEach, describe, expect, it, vi } from "vitest";
import { runAfterResponse } from "@/lib/after-response";
import { log } from "@/lib/log";

// What pg-pool throws when its queue waited past the connection timeout: the
// database was too busy, not wrong (lib/database-busy.ts).
const poolTimeout = () => new Error("timeout exceeded when trying to connect");
const noWait = [0, 0, 0];

afterEach(() => vi.restoreAllMocks());

describe("work left for after the response", () => {
  it("is tried again while the database is too busy, and lost to nothing", async () => {
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    vi.spyOn(log, "warn").mockImplementation(() => {});
    const work = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(poolTimeout())
      .mockRejectedValueOnce(poolTimeout())
      .mockResolvedValueOnce(undefined);
    await runAfterResponse("sign_up", work, noWait);
    expect(work).toHaveBeenCalledTimes(3);
    expect(error).not.toHaveBeenCalled();
  });

  it("gives up after its last wait, and says so by the error's name only", async () => {
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const work = vi.fn<() => Promise<void>>().mockRejectedValue(poolTimeout());
    await runAfterResponse("sign_up", work, noWait);
    expect(work).toHaveBeenCalledTimes(4);
    expect(warn.mock.calls.map(([event, fields]) => [event, fields?.attempt])).toEqual([
      ["after_response.busy", 1],
      ["after_response.busy", 2],
      ["after_response.busy", 3],
    ]);
    expect(error.mock.calls).toEqual([["after_response.failed", { task: "sign_up", error: "Error" }]]);
  });

  it("does not try again a failure that is not a busy database (control)", async () => {
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    const work = vi.fn<() => Promise<void>>().mockRejectedValue(new TypeError("a fault in the work itself"));
    await runAfterResponse("password_reset", work, noWait);
    expect(work).toHaveBeenCalledTimes(1);
    expect(error.mock.calls).toEqual([["after_response.failed", { task: "password_reset", error: "TypeError" }]]);
  });
});
