import { describe, expect, it } from "vitest";
import { cn } from "@/components/ui/cn";

describe("cn", () => {
  it("lets the later of two classes for one property win", () => {
    expect(cn("min-h-10 px-4 py-2", "min-h-8 px-2 py-1")).toBe("min-h-8 px-2 py-1");
    expect(cn("bg-indigo-600 dark:bg-indigo-400", "dark:bg-red-500")).toBe("bg-indigo-600 dark:bg-red-500");
  });

  it("skips what is falsy", () => {
    expect(cn("a", false, null, undefined, "b")).toBe("a b");
  });
});
