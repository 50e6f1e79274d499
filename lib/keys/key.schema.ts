import { z } from "zod";
import { KEY_ENVIRONMENTS, KEY_ID_PATTERN } from "./format";
import { BIDI_CONTROLS, CONTROL_CHARACTERS } from "../text";
import { gracePeriodSchema } from "./grace";

export const labelSchema = z
  .string({ error: "Give the key a label." })
  .trim()
  .min(1, "Give the key a label.")
  .max(64, "Use at most 64 characters for the label.")
  .refine((label) => !CONTROL_CHARACTERS.test(label), "The label cannot contain control characters.")
  .refine((label) => !BIDI_CONTROLS.test(label), "The label cannot contain text-direction control characters.");

export const keyIdSchema = z.string().regex(KEY_ID_PATTERN, "That key id is not valid.");

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_EXPIRY_DAYS = 5 * 366;

export const createKeySchema = z
  .object({
    label: labelSchema,
    environment: z.enum(KEY_ENVIRONMENTS, { error: "Choose Development or Production." }),
    expiry: z.enum(["never", "30", "90", "date"], { error: "Choose when the key expires." }),
    expiryDate: z.string().optional(),
  })
  .transform((input, ctx) => {
    let expiresAt: Date | null = null;
    if (input.expiry === "30" || input.expiry === "90") {
      expiresAt = new Date(Date.now() + Number(input.expiry) * DAY_MS);
    } else if (input.expiry === "date") {
      const match = /^\d{4}-\d{2}-\d{2}$/.exec(input.expiryDate ?? "");
      // The key works through the whole chosen day (UTC).
      const date = match ? new Date(`${input.expiryDate}T23:59:59.999Z`) : null;
      // A day that does not exist (31 February) would roll over into the next month.
      if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== input.expiryDate) {
        ctx.addIssue({ code: "custom", path: ["expiryDate"], message: "Pick an expiry date." });
        return z.NEVER;
      }
      if (date.getTime() <= Date.now()) {
        ctx.addIssue({ code: "custom", path: ["expiryDate"], message: "The expiry date must be in the future." });
        return z.NEVER;
      }
      if (date.getTime() > Date.now() + MAX_EXPIRY_DAYS * DAY_MS) {
        ctx.addIssue({ code: "custom", path: ["expiryDate"], message: "Pick a date within five years." });
        return z.NEVER;
      }
      expiresAt = date;
    }
    return { label: input.label, environment: input.environment, expiresAt };
  });

export const renameKeySchema = z.object({ keyId: keyIdSchema, label: labelSchema });

export { GRACE_PERIODS, type GracePeriod } from "./grace";

export const rotateKeySchema = z.object({ keyId: keyIdSchema, grace: gracePeriodSchema });

export const revokeKeySchema = z.object({
  keyId: keyIdSchema,
  reason: z
    .string()
    .trim()
    .max(200, "Keep the reason under 200 characters.")
    .refine((reason) => !CONTROL_CHARACTERS.test(reason), "The reason cannot contain control characters.")
    .optional()
    .transform((reason) => (reason ? reason : null)),
});

export const keyActionSchema = z.object({ keyId: keyIdSchema });
