import { z } from "zod";
import { LIFETIME_DAYS_MAX, LIFETIME_DAYS_MIN, PRODUCTION_KEY_RULES } from "./policies";

// A team's policies as the settings form and the operator CLI give them.

const LIFETIME_MESSAGE = `Enter a number of days from ${LIFETIME_DAYS_MIN} to ${LIFETIME_DAYS_MAX}, or leave it empty for no maximum.`;

/** A maximum lifetime as the settings form and the CLI give it: days, or empty (the CLI: "none") for no maximum. */
export const lifetimeDaysSchema = z
  .string({ error: LIFETIME_MESSAGE })
  .max(16, LIFETIME_MESSAGE)
  .transform((text, ctx) => {
    const value = text.trim();
    if (value === "" || value.toLowerCase() === "none") return null;
    const days = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(days >= LIFETIME_DAYS_MIN && days <= LIFETIME_DAYS_MAX)) {
      ctx.addIssue({ code: "custom", message: LIFETIME_MESSAGE });
      return z.NEVER;
    }
    return days;
  });

/** The CLI's: an empty value (an unset variable in a script, say) is refused; no maximum is said with "none". */
export const cliLifetimeDaysSchema = z
  .string()
  .refine(
    (text) => text.trim() !== "",
    `Give a number of days from ${LIFETIME_DAYS_MIN} to ${LIFETIME_DAYS_MAX}, or none.`,
  )
  .pipe(lifetimeDaysSchema);

export const productionKeyRuleSchema = z.enum(PRODUCTION_KEY_RULES, {
  error: `Choose who creates production keys: ${PRODUCTION_KEY_RULES.join(", ")}.`,
});
