// Every environment variable the app reads, parsed once. The schema lives apart
// from lib/env.ts so the start-up scripts can check the environment with the
// same rules before the server starts.
import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "./db-target";

const MIN_SECRET_LENGTH = 32;
const PLACEHOLDER_SECRETS = new Set(["changeme", "secret", "change-me-to-a-long-random-string"]);

const base = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z
    .string()
    .trim()
    .default(DEFAULT_DATABASE_URL)
    .refine((url) => url.startsWith("file:") || /^postgres(ql)?:\/\//.test(url), {
      message: "must start with file: (SQLite) or postgresql:// (PostgreSQL)",
    }),
  AUTH_SECRET: z.string().optional(),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
  // How many reverse proxies in front of the app append to X-Forwarded-For.
  // Unset or 0: the client IP is the socket's peer and X-Forwarded-For is ignored.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "" || value === "false") return 0;
      if (value === "true") return 1;
      const hops = Number(value);
      if (!Number.isInteger(hops) || hops < 0 || hops > 10) {
        ctx.addIssue({ code: "custom", message: 'must be "true", "false" or a number of proxies from 0 to 10' });
        return z.NEVER;
      }
      return hops;
    }),
  // Sign-ups allowed per client IP per hour (README, "Accounts and sessions").
  SIGN_UP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(5),
  // Public API limits (README, "The public API").
  RATE_LIMIT_DEV_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  RATE_LIMIT_PROD_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  // All of one account's keys of an environment together. Unset: twice the per-key limit.
  RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).optional(),
  RATE_LIMIT_ACCOUNT_PROD_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).optional(),
  // Next reads it itself; checked here so a bad value stops start-up with a clear message.
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: z
    .string()
    .refine((key) => [16, 24, 32].includes(Buffer.from(key, "base64").length), {
      message: "must be a base64 AES key of 16, 24 or 32 bytes (openssl rand -base64 32)",
    })
    .optional(),
  // Shared rate-limit counters in Redis (takes precedence over PostgreSQL).
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  // "1": when the rate-limit store is down, let requests through (logged) instead of answering 503.
  RATE_LIMIT_FAIL_OPEN: z.enum(["0", "1"]).default("0"),
  BODY_LIMIT_JSON_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
  BODY_LIMIT_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(20 * 1024 * 1024),
  // Pause between the sandbox model's streamed tokens (tests and demos). Default: 0
  SANDBOX_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(5_000).default(0),
  // Where uploaded files are stored. Default: data/files (git-ignored)
  FILES_DIR: z.string().min(1).default("data/files"),
  // Stored bytes per account (both environments); an upload past it is 413 storage_quota_exceeded.
  FILES_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 4)
    .default(500 * 1024 * 1024),
  // Days a file is kept; the background worker then deletes the bytes and the row.
  FILES_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Days a finished generation is kept.
  GENERATION_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Days the per-request usage log is kept; the hourly aggregates are kept 400 days.
  USAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // How often each instance prunes what has passed its retention.
  MAINTENANCE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  // Uploads one key may have in progress at once, per instance.
  UPLOADS_PER_KEY: z.coerce.number().int().min(1).max(100).default(2),
  // The generation worker runs inside each app instance unless this is "1".
  WORKER_DISABLED: z.enum(["0", "1"]).default("0"),
  // Encrypts two-factor secrets and the links queued in the mail outbox: 32
  // random bytes, base64 (openssl rand -base64 32). Apart from AUTH_SECRET on
  // purpose, so rotating the cookie secret leaves two-factor enrolments intact.
  ENCRYPTION_KEY: z
    .string()
    .refine((key) => Buffer.from(key, "base64").length === 32, {
      message: "must be 32 random bytes in base64 (openssl rand -base64 32)",
    })
    .optional(),
  // Outgoing mail (lib/mail/). Unset: messages are written to data/outbox/ (their
  // links printed to the log under `npm run dev` only); required when PUBLIC_BASE_URL is https.
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).max(200).default("Keyport <no-reply@keyport.localhost>"),
  // Where the development outbox (no SMTP_URL) writes each message as an .eml file.
  MAIL_OUTBOX_DIR: z.string().min(1).default("data/outbox"),
  // How often each instance's mail job looks for notices to queue and mail to send.
  MAIL_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
  // The mail job runs inside each app instance unless this is "1" (independent of WORKER_DISABLED).
  MAIL_DISABLED: z.enum(["0", "1"]).default("0"),
  GITHUB_ID: z.string().optional(),
  GITHUB_SECRET: z.string().optional(),
  // GitHub's secret-scanning public keys document (lib/secret-scanning/): the
  // keys that sign reports to POST /webhooks/secret-scanning. Unset: every
  // report is refused as unsigned. Its content is checked at start-up
  // (lib/startup-check.ts), not here: this schema also reaches client code.
  SECRET_SCANNING_PUBLIC_KEYS: z.string().max(200_000).optional(),
  // "1" only in the test suite: cheaper password hashing, on the suite's own
  // throw-away databases only (lib/auth/test-hashing.ts); with any other database, start-up stops.
  KEYPORT_TEST_MODE: z.enum(["0", "1"]).default("0"),
});

export const envSchema = base.superRefine((env, ctx) => {
  const secret = env.AUTH_SECRET;
  if (!secret) {
    ctx.addIssue({
      code: "custom",
      path: ["AUTH_SECRET"],
      message:
        env.NODE_ENV === "production"
          ? "is required in production: set it to a random string of at least 32 characters (openssl rand -base64 32)"
          : "is missing: `npm run dev` generates one into .env.development.local",
    });
  } else if (
    env.NODE_ENV === "production" &&
    (secret.length < MIN_SECRET_LENGTH || PLACEHOLDER_SECRETS.has(secret.toLowerCase()) || new Set(secret).size < 8)
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["AUTH_SECRET"],
      message: `is too weak for production: use a random string of at least ${MIN_SECRET_LENGTH} characters`,
    });
  }
  if (!env.ENCRYPTION_KEY) {
    ctx.addIssue({
      code: "custom",
      path: ["ENCRYPTION_KEY"],
      message:
        env.NODE_ENV === "production"
          ? "is required in production: 32 random bytes in base64 (openssl rand -base64 32)"
          : "is missing: `npm run dev` generates one into .env.development.local",
    });
  }
  if (!env.SMTP_URL && env.NODE_ENV === "production" && env.PUBLIC_BASE_URL.startsWith("https:")) {
    ctx.addIssue({
      code: "custom",
      path: ["SMTP_URL"],
      message:
        "is required when PUBLIC_BASE_URL is https: password resets and security notices must reach people (smtp://user:pass@host:587)",
    });
  }
});

export type Env = z.infer<typeof envSchema>;

/** The per-key and the account-wide limit (requests per minute) for keys of one environment. */
type RateLimitSettings = Pick<
  Env,
  | "RATE_LIMIT_DEV_PER_MINUTE"
  | "RATE_LIMIT_PROD_PER_MINUTE"
  | "RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE"
  | "RATE_LIMIT_ACCOUNT_PROD_PER_MINUTE"
>;

export function rateLimits(env: RateLimitSettings, environment: "dev" | "prod") {
  const perKey = environment === "prod" ? env.RATE_LIMIT_PROD_PER_MINUTE : env.RATE_LIMIT_DEV_PER_MINUTE;
  const account =
    (environment === "prod" ? env.RATE_LIMIT_ACCOUNT_PROD_PER_MINUTE : env.RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE) ??
    perKey * 2;
  return { perKey, account };
}

/**
 * PUBLIC_BASE_URL's default follows PORT, so `PORT=4000 npm run dev` links
 * and documents http://localhost:4000 (server.mjs applies the same rule).
 */
function withBaseUrlDefault(source: Record<string, string | undefined>): Record<string, string | undefined> {
  if (source.PUBLIC_BASE_URL) return source;
  const port = /^\d{1,5}$/.test(source.PORT ?? "") ? source.PORT : "3000";
  return { ...source, PUBLIC_BASE_URL: `http://localhost:${port}` };
}

/** The deployment's origin, for code that runs outside the server-only modules (the proxy). */
export function publicBaseUrl(source: Record<string, string | undefined> = process.env): string {
  const parsed = base.shape.PUBLIC_BASE_URL.safeParse(withBaseUrlDefault(source).PUBLIC_BASE_URL);
  return parsed.success ? parsed.data : "http://localhost:3000";
}

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment, or throws one error that names every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(withBaseUrlDefault(source));
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(env)"} ${issue.message}`);
  throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
}

/** The defaults of every setting, as the docs quote them (an empty environment, parsed). */
export function envDefaults(): z.infer<typeof base> {
  return base.parse({});
}
