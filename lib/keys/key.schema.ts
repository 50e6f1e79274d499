import { z } from "zod";
import { teamSlugSchema } from "../teams/slug";
import { EXPIRY_CHOICES } from "./expiry";
import { KEY_ENVIRONMENTS, KEY_ID_PATTERN, KEY_REQUEST_ID_PATTERN } from "./format";
import { holdsApiKey } from "./key-in-text";
import { BIDI_CONTROLS, CONTROL_CHARACTERS, ENCODED_WORD, showsNothing } from "../text";
import { gracePeriodSchema } from "./grace";
import { parseAllowlist } from "./ip-allowlist";
import type { KeyRestrictions } from "./restrictions";
import { scopeField } from "./scope-field";
import { READ_ONLY_SCOPES, SCOPE_NAMES } from "./scopes";
import { KEY_REQUEST_REASON_MAX } from "../teams/policies";

export const labelSchema = z
  .string({ error: "Give the key a label." })
  .trim()
  .min(1, "Give the key a label.")
  .max(64, "Use at most 64 characters for the label.")
  .refine((label) => !CONTROL_CHARACTERS.test(label), "The label cannot contain control characters.")
  .refine((label) => !BIDI_CONTROLS.test(label), "The label cannot contain text-direction control characters.")
  // Spaces alone are refused by the trim; zero-width and other invisible characters alone would leave a row with
  // no visible name and no visible link (a new user's walk: U+200B).
  .refine((label) => !showsNothing(label), "Give the key a label that shows: it holds only invisible characters.")
  .refine((label) => !/[\u2028\u2029]/.test(label), "The label cannot contain line or paragraph separators.")
  // Shown in lists, mail subjects and the log: a key pasted here would be stored and sent on.
  // Sent in mail subjects: an encoded word there would be decoded by the reader's mail program, past these checks.
  .refine((label) => !ENCODED_WORD.test(label), "The label cannot contain an encoded mail word (=?…?=).")
  .refine((label) => !holdsApiKey(label), "The label cannot contain an API key.");

export const keyIdSchema = z.string().regex(KEY_ID_PATTERN, "That key id is not valid.");

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_EXPIRY_DAYS = 5 * 366;

/**
 * The restriction fields a form sends (create and edit): the access choice,
 * a checkbox per scope, the allowlist as typed and the rate limit. Whether
 * the limit is below the environment's default is checked where the
 * environment is known (lib/keys/lifecycle.ts).
 */
const accessSchema = z.enum(["all", "read-only", "custom"], { error: "Choose what the key can do." });

const allowlistText = z.string().max(4_000, "The allowlist is too long.");

// Whether the limit fits the environment's default (or, for the operator, the
// highest limit) is checked in lib/keys/lifecycle.ts, which knows both.
const rateLimitText = z
  .string()
  .trim()
  .refine((value) => value === "" || /^\d{1,9}$/.test(value), "Enter a whole number of requests per minute.")
  .transform((value) => (value === "" ? null : Number(value)))
  .refine((value) => value === null || value >= 1, "Enter at least 1 request per minute, or leave it empty.");

const restrictionFields = {
  // A new key is All, anywhere, at the default unless the form says otherwise; an edit must send every field (below).
  access: accessSchema.default("all"),
  ...Object.fromEntries(SCOPE_NAMES.map((scope) => [scopeField(scope), z.literal("on").optional()])),
  allowedIps: allowlistText.default(""),
  rateLimit: rateLimitText.default(null),
};

type RestrictionInput = {
  access: "all" | "read-only" | "custom";
  allowedIps: string;
  rateLimit: number | null;
} & Record<string, unknown>;

/** Turns the restriction fields into a KeyRestrictions, or adds the issue to the field it concerns. */
function toRestrictions(input: RestrictionInput, ctx: z.RefinementCtx): KeyRestrictions | typeof z.NEVER {
  let scopes: KeyRestrictions["scopes"] = "all";
  if (input.access === "read-only") scopes = [...READ_ONLY_SCOPES];
  if (input.access === "custom") {
    scopes = SCOPE_NAMES.filter((scope) => input[scopeField(scope)] === "on");
    if (scopes.length === 0) {
      ctx.addIssue({ code: "custom", path: ["scopes"], message: "Choose at least one scope, or choose All." });
      return z.NEVER;
    }
  }
  const allowlist = parseAllowlist(input.allowedIps);
  if (!allowlist.ok) {
    ctx.addIssue({ code: "custom", path: ["allowedIps"], message: allowlist.error });
    return z.NEVER;
  }
  return { scopes, allowedIps: allowlist.entries, rateLimit: input.rateLimit };
}

/**
 * A team's defaults for new production keys (lib/teams/policies.ts), as the settings form sends them: the access
 * fields and the allowlist of the key forms, without a rate limit. Spread into the settings form's schema.
 */
export const defaultAccessFields = {
  access: accessSchema.default("all"),
  ...Object.fromEntries(SCOPE_NAMES.map((scope) => [scopeField(scope), z.literal("on").optional()])),
  allowedIps: allowlistText.default(""),
};

/** The defaults from those fields, or the issues on their fields (`scopes`, `allowedIps`). */
export function toDefaultAccess(
  input: { access: "all" | "read-only" | "custom"; allowedIps: string } & Record<string, unknown>,
  ctx: z.RefinementCtx,
): { scopes: KeyRestrictions["scopes"]; allowedIps: string[] | null } | typeof z.NEVER {
  const restrictions = toRestrictions({ ...input, rateLimit: null }, ctx);
  return restrictions === z.NEVER ? z.NEVER : { scopes: restrictions.scopes, allowedIps: restrictions.allowedIps };
}

export const updateRestrictionsSchema = z
  // No defaults here: an edit that left a field out would otherwise clear it.
  .object({
    keyId: keyIdSchema,
    ...restrictionFields,
    access: accessSchema,
    allowedIps: allowlistText,
    rateLimit: rateLimitText,
  })
  .transform((input, ctx) => {
    const restrictions = toRestrictions(input, ctx);
    return restrictions === z.NEVER ? z.NEVER : { keyId: input.keyId, restrictions };
  });

/** Text a person writes for others to read (a request's reason, a decision's comment): lines, but no controls. */
const LINE_BREAKS = /\r\n?/g;
const CONTROLS_BUT_LINE_BREAKS = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;
export const noteText = (max: number, missing = "Write something here.") =>
  z
    .string({ error: missing })
    .trim()
    .max(max, `Keep it to ${max} characters or fewer.`)
    .refine(
      (text) => !CONTROLS_BUT_LINE_BREAKS.test(text.replace(LINE_BREAKS, "\n")),
      "It cannot contain control characters.",
    )
    .refine((text) => !BIDI_CONTROLS.test(text), "It cannot contain text-direction control characters.")
    // Mailed, and kept in the team's activity: never a key.
    .refine((text) => !holdsApiKey(text), "It cannot contain an API key.");

const createKeyFields = {
  label: labelSchema,
  environment: z.enum(KEY_ENVIRONMENTS, { error: "Choose Development or Production." }),
  expiry: z.enum(EXPIRY_CHOICES, { error: "Choose when the key expires." }),
  expiryDate: z.string().optional(),
  // A checkbox: "on" when ticked, absent otherwise.
  decoy: z.literal("on").optional(),
  // The team that will own the key (its slug, from the page's form); the person's personal team when absent.
  team: teamSlugSchema.optional(),
  // Who in the team owns it: "self" (or absent) for the person making it, else one of the team's service accounts.
  serviceAccount: z.string().max(64, "Choose one of this team's service accounts.").optional(),
  ...restrictionFields,
};

type CreateKeyInput = z.output<z.ZodObject<typeof createKeyFields>>;

/** The create form's fields as a new key: its expiry as a moment, its restrictions; or the issues, on their fields. */
function toNewKey(input: CreateKeyInput, ctx: z.RefinementCtx) {
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
  const restrictions = toRestrictions(input, ctx);
  if (restrictions === z.NEVER) return z.NEVER;
  return {
    label: input.label,
    environment: input.environment,
    expiresAt,
    restrictions,
    decoy: input.decoy === "on",
    team: input.team,
    serviceAccountId: input.serviceAccount && input.serviceAccount !== "self" ? input.serviceAccount : undefined,
  };
}

export const createKeySchema = z.object(createKeyFields).transform(toNewKey);

/**
 * A developer's request for a production key (lib/keys/key-requests.ts): the create form's fields, for a key of the
 * person asking (never a service account's), and why they need it.
 */
export const keyRequestSchema = z
  .object({
    ...createKeyFields,
    team: teamSlugSchema,
    reason: noteText(KEY_REQUEST_REASON_MAX, "Say why the team needs this key.").min(
      1,
      "Say why the team needs this key.",
    ),
  })
  .transform((input, ctx) => {
    const key = toNewKey({ ...input, environment: "prod", decoy: undefined, serviceAccount: undefined }, ctx);
    if (key === z.NEVER) return z.NEVER;
    return {
      team: input.team,
      label: key.label,
      expiresAt: key.expiresAt,
      restrictions: key.restrictions,
      reason: input.reason,
    };
  });

export const keyRequestIdSchema = z.string().regex(KEY_REQUEST_ID_PATTERN, "That request id is not valid.");

/** An admin's decision on a request: a denial says why (the requester reads it), an approval may. */
export const decideKeyRequestSchema = z
  .object({
    team: teamSlugSchema,
    requestId: keyRequestIdSchema,
    decision: z.enum(["approve", "deny"], { error: "Choose Approve or Deny." }),
    comment: noteText(KEY_REQUEST_REASON_MAX).optional(),
  })
  .transform((input, ctx) => {
    const comment = input.comment ? input.comment : null;
    if (input.decision === "deny" && !comment) {
      ctx.addIssue({ code: "custom", path: ["comment"], message: "Say why you deny it: the developer reads this." });
      return z.NEVER;
    }
    return { team: input.team, requestId: input.requestId, approve: input.decision === "approve", comment };
  });

export const revealKeyRequestSchema = z.object({ team: teamSlugSchema, requestId: keyRequestIdSchema });

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
    // It is kept in the team's activity chain and shown to every member: never a key (attack review of team chains).
    .refine((reason) => !holdsApiKey(reason), "The reason cannot contain an API key: describe where it leaked instead.")
    .optional()
    .transform((reason) => (reason ? reason : null)),
});

export const keyActionSchema = z.object({ keyId: keyIdSchema });

/**
 * "Narrow to these scopes" from real use: only the scopes. The server keeps
 * the key's allowlist and limit as they are now, so a page drawn before
 * someone changed them cannot put the old ones back.
 */
export const narrowScopesSchema = z
  .object({
    keyId: keyIdSchema,
    ...Object.fromEntries(SCOPE_NAMES.map((scope) => [scopeField(scope), z.literal("on").optional()])),
  })
  .transform((input, ctx) => {
    const scopes = SCOPE_NAMES.filter((scope) => (input as Record<string, unknown>)[scopeField(scope)] === "on");
    if (scopes.length === 0) {
      ctx.addIssue({ code: "custom", path: ["scopes"], message: "Choose at least one scope." });
      return z.NEVER;
    }
    return { keyId: input.keyId, scopes };
  });
