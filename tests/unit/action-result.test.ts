import { describe, expect, it } from "vitest";
import { z } from "zod";
import { failure, formValues, invalid } from "@/lib/web/action-result";
import { generateApiKey } from "@/lib/keys/format";

function form(entries: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

describe("action results", () => {
  it("hand back what was typed, but never a secret field or Next's own fields", () => {
    const data = form({ email: "ada@example.com", password: "hunter2hunter2", $ACTION_ID_abc: "", label: "x" });
    expect(formValues(data, ["password"])).toEqual({ email: "ada@example.com", label: "x" });
    expect(failure("No.", data, { omit: ["password"] })).toEqual({
      ok: false,
      error: "No.",
      fieldErrors: {},
      values: { email: "ada@example.com", label: "x" },
    });
  });

  it("turn a zod failure into field errors, with the first as the form's message", () => {
    const schema = z.object({ label: z.string().min(1, "Give the key a label."), grace: z.enum(["now"]) });
    const data = form({ label: "", grace: "soon" });
    const parsed = schema.safeParse(Object.fromEntries(data));
    expect(parsed.success).toBe(false);
    const result = invalid(parsed.error!, data);
    expect(result.error).toBe("Give the key a label.");
    expect(Object.keys(result.fieldErrors).sort()).toEqual(["grace", "label"]);
    expect(result.values).toEqual({ label: "", grace: "soon" });
  });

  it("never echo a value that holds an API key, whatever the field", () => {
    const key = generateApiKey("prod");
    expect(formValues(form({ reason: `it is ${key}, see`, label: "kept" }))).toEqual({ label: "kept" });
    // Nor one the shortening would cut (most of a key is nearly all of it), nor a field named by a key.
    expect(formValues(form({ reason: `${"x".repeat(956)}${key}` }))).toEqual({});
    expect(formValues(form({ [key]: "x" }))).toEqual({});
  });

  it("do not echo a value longer than any field takes", () => {
    expect(formValues(form({ label: "x".repeat(5_000) })).label).toHaveLength(1_000);
  });
});
