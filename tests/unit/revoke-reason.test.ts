// A revocation's reason is kept in the team's activity chain and shown to
// every member: a key pasted into it is refused, as in a label or a team name
// (attack review of team chains), and an ordinary reason passes (the control).
import { describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/keys/format";
import { revokeKeySchema } from "@/lib/keys/key.schema";

const keyId = "key_AbCdEfGh12345678";

describe("a revocation's reason", () => {
  it("passes an ordinary reason, and none", () => {
    expect(revokeKeySchema.parse({ keyId, reason: "found in a CI log (build 812)" }).reason).toBe(
      "found in a CI log (build 812)",
    );
    expect(revokeKeySchema.parse({ keyId }).reason).toBeNull();
  });

  it("refuses one that holds a key, bare or inside words", () => {
    const key = generateApiKey("dev");
    for (const reason of [key, `leaked ${key} in slack`, `KEYPORT_KEY=${key}`]) {
      const parsed = revokeKeySchema.safeParse({ keyId, reason });
      expect(parsed.success, reason.replace(key, "<key>")).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(
        "The reason cannot contain an API key: describe where it leaked instead.",
      );
    }
  });
});
