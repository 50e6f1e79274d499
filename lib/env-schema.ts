// Every environment variable the app reads, parsed once. The schema lives apart
// from lib/env.ts so the start-up scripts can check the environment with the
// same rules before the server starts.
import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "./db-target";

const MIN_SECRET_LENGTH = 32;
const PLACEHOLDER_SECRETS = new Set(["changeme", "secret", "change-me-to-a-long-random-string"]);

// Each variable's description is what docs/configuration.md and the table
// there say about it (`npm run docs:env` writes the table from this schema).
const base = z.object({
  NODE_ENV: z
    .enum(["development", "test", "production"])
    .default("development")
    .describe(
      "Set by the commands: `npm run dev` is development, `npm start` production, the test suite test. Production requires `AUTH_SECRET`, `ENCRYPTION_KEY` and, with an https `PUBLIC_BASE_URL`, `SMTP_URL`.",
    ),
  DATABASE_URL: z
    .string()
    .trim()
    .default(DEFAULT_DATABASE_URL)
    .refine((url) => url.startsWith("file:") || /^postgres(ql)?:\/\//.test(url), {
      message: "must start with file: (SQLite) or postgresql:// (PostgreSQL)",
    })
    .describe(
      "Where the data lives: an SQLite file (`file:`, created on first run) or PostgreSQL (`postgresql://USER:PASSWORD@HOST:5432/DATABASE`). Picks the Prisma client, the migrations and the driver.",
    ),
  DATABASE_LISTEN_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, "must start with postgresql://")
    .optional()
    .describe(
      'PostgreSQL only: where each instance opens the one connection on which it hears key and membership changes, heartbeats and acknowledges revocations (docs/operations.md, "Several instances"). It needs a session of its own: set it when `DATABASE_URL` goes through a pooler in transaction mode (LISTEN does not work there). Unset: `DATABASE_URL`.',
    ),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(10)
    .describe(
      "PostgreSQL only: the connections each of an instance's two pools may hold (the app's, through the ORM, and the public API's own), so an instance opens up to twice this many. A request that finds its pool full waits for a connection, up to `DATABASE_TIMEOUT_MS`.",
    ),
  DATABASE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe(
      'How long a query waits for the database before its request gives up with 503 (with `Retry-After` on the public API, a "try again" page in the app): for a PostgreSQL connection (a free one in its pool, or a new one to open), or for SQLite\'s write lock.',
    ),
  AUTH_SECRET: z
    .string()
    .optional()
    .describe(
      "Signs session cookies. Required in production: a random string of at least 32 characters (`openssl rand -base64 32`), the same on every instance. `npm run dev` generates one into `.env.development.local`.",
    ),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .default("http://localhost:3000")
    .describe(
      "The deployment's origin (http or https), for links and the docs' examples; the docs are prerendered, so set it for `npm run build` too. https turns on Secure `__Host-` cookies and HSTS. Unset: `http://localhost:$PORT`.",
    ),
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
    })
    .describe(
      "How many reverse proxies in front of the app append to `X-Forwarded-For`: 0 to 10 (`true` is 1, `false` 0). Unset or 0: the client IP is the socket's address and `X-Forwarded-For` is ignored, so a client cannot pick its own IP for the lockout and the per-IP limits.",
    ),
  SIGN_UP_LIMIT_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(5)
    .describe("Sign-ups (known addresses included) allowed per client IP per hour."),
  RATE_LIMIT_DEV_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(60)
    .describe(
      "The public API's limit for a development key, in requests per minute; a key's own limit set in the dashboard can only be lower.",
    ),
  RATE_LIMIT_PROD_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(600)
    .describe(
      "The public API's limit for a production key, in requests per minute; a key's own limit set in the dashboard can only be lower.",
    ),
  RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .optional()
    .describe(
      "Requests per minute by all of one team's development keys together (the name is from before teams). Unset: twice `RATE_LIMIT_DEV_PER_MINUTE`.",
    ),
  RATE_LIMIT_ACCOUNT_PROD_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .optional()
    .describe(
      "Requests per minute by all of one team's production keys together (the name is from before teams). Unset: twice `RATE_LIMIT_PROD_PER_MINUTE`.",
    ),
  // Next reads it itself; checked here so a bad value stops start-up with a clear message.
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: z
    .string()
    .refine((key) => [16, 24, 32].includes(Buffer.from(key, "base64").length), {
      message: "must be a base64 AES key of 16, 24 or 32 bytes (openssl rand -base64 32)",
    })
    .optional()
    .describe(
      "Next's server-action encryption key: base64 of 16, 24 or 32 bytes (`openssl rand -base64 32`). Unset: Next makes one per build. Several instances must share one, set at build time too.",
    ),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .optional()
    .describe(
      "Rate-limit counters in Redis (`redis://` or `rediss://`, e.g. `redis://127.0.0.1:6379`), shared by every instance. Unset: in PostgreSQL when `DATABASE_URL` is PostgreSQL, in process on SQLite.",
    ),
  RATE_LIMIT_FAIL_OPEN: z
    .enum(["0", "1"])
    .default("0")
    .describe(
      "`1`: while the rate-limit store is down, let requests through with a logged warning (the key is still verified against the database). `0`: answer 503 `service_unavailable`.",
    ),
  BODY_LIMIT_JSON_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024)
    .describe("The largest JSON body the public API reads, in bytes; a larger one is 413 `payload_too_large`."),
  BODY_LIMIT_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(20 * 1024 * 1024)
    .describe("The largest upload the public API reads, in bytes; a larger one is 413 `payload_too_large`."),
  SANDBOX_TOKEN_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(5_000)
    .default(0)
    .describe("Pause between the sandbox model's streamed tokens, in milliseconds (demos and tests)."),
  FILES_DIR: z.string().min(1).default("data/files").describe("Where uploaded files are stored."),
  FILES_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 4)
    .default(500 * 1024 * 1024)
    .describe("Stored upload bytes per team (both environments); an upload past it is 413 `storage_quota_exceeded`."),
  FILES_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(30)
    .describe("Days an upload is kept; then pruning deletes the bytes and the row."),
  GENERATION_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(30)
    .describe("Days a finished generation is kept; queued and running ones stay."),
  USAGE_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(30)
    .describe("Days the per-request usage log is kept; the hourly usage counts are kept 400 days."),
  MAINTENANCE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(600)
    .describe("How often each instance prunes what passed its retention, in seconds."),
  UPLOADS_PER_KEY: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(2)
    .describe("Uploads one key may have in progress at once, per instance; one more is 429 `rate_limited`."),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65_535)
    .optional()
    .describe(
      "Serves Prometheus metrics at `/metrics` on this port, on a listener of its own (never the public port). Unset: no metrics are kept and no listener is opened.",
    ),
  METRICS_HOST: z
    .string()
    .min(1)
    .default("127.0.0.1")
    .describe(
      "The address the metrics listener binds to. The default keeps it to this machine; `0.0.0.0` (or a private address) lets a Prometheus on another host scrape it, so firewall it: the metrics name routes, refusal codes and queue depths.",
    ),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "Sends OpenTelemetry traces over OTLP/HTTP (JSON) to this collector's base URL (`http://localhost:4318`; spans go to `/v1/traces` under it): a span per public API request with its steps, per server action and per background job run. Unset: no traces, and no OpenTelemetry module is loaded.",
    ),
  OTEL_SERVICE_NAME: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .default("keyport")
    .describe("The `service.name` the traces carry (with `OTEL_EXPORTER_OTLP_ENDPOINT`)."),
  WORKER_DISABLED: z
    .enum(["0", "1"])
    .default("0")
    .describe("`1`: this instance runs no generation worker and no pruning (another instance must)."),
  // Apart from AUTH_SECRET on purpose, so rotating the cookie secret leaves two-factor enrolments intact.
  ENCRYPTION_KEY: z
    .string()
    .refine((key) => Buffer.from(key, "base64").length === 32, {
      message: "must be 32 random bytes in base64 (openssl rand -base64 32)",
    })
    .optional()
    .describe(
      "Encrypts two-factor secrets and the links queued in the mail outbox, and signs the activity log's chain (a key derived from it): 32 random bytes in base64 (`openssl rand -base64 32`). Required in production, by the operator command line too; `npm run dev` generates one. Apart from `AUTH_SECRET`, so rotating the cookie secret leaves two-factor enrolments and queued mail readable. It cannot be rotated: the activity chains would no longer check.",
    ),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/ })
    .optional()
    .describe(
      "Outgoing mail (`smtp://` or `smtps://`, e.g. `smtp://user:pass@smtp.example.com:587`). Unset: each message is written to `MAIL_OUTBOX_DIR`, its links printed to the log under `npm run dev` only (a reset link is a bearer token). Required in production when `PUBLIC_BASE_URL` is https.",
    ),
  MAIL_FROM: z
    .string()
    .min(3)
    .max(200)
    .default("Keyport <no-reply@keyport.localhost>")
    .describe("The sender of every message."),
  MAIL_OUTBOX_DIR: z
    .string()
    .min(1)
    .default("data/outbox")
    .describe("Where the development outbox (no `SMTP_URL`) writes each message as an `.eml` file."),
  MAIL_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(15)
    .describe("How often each instance's mail job looks for notices to queue and mail to send, in seconds."),
  MAIL_DISABLED: z
    .enum(["0", "1"])
    .default("0")
    .describe("`1`: this instance runs no mail job (independent of `WORKER_DISABLED`)."),
  GITHUB_ID: z
    .string()
    .optional()
    .describe(
      "A GitHub OAuth app's client id (callback `{PUBLIC_BASE_URL}/api/auth/callback/github`). With `GITHUB_SECRET`, the sign-in page offers GitHub; unset: email and password only.",
    ),
  GITHUB_SECRET: z.string().optional().describe("The GitHub OAuth app's client secret (see `GITHUB_ID`)."),
  // Its content is checked at start-up (lib/startup-check.ts), not here: this
  // schema also reaches client code.
  SECRET_SCANNING_PUBLIC_KEYS: z
    .string()
    .max(200_000)
    .optional()
    .describe(
      "GitHub's secret-scanning public keys document, as is (`curl https://api.github.com/meta/public_keys/secret_scanning`): the keys that sign reports to `POST /webhooks/secret-scanning`. Unset: every report is refused as unsigned. A document that is not valid JSON or holds a key that is not ECDSA P-256 stops start-up.",
    ),
  KEYPORT_TEST_MODE: z
    .enum(["0", "1"])
    .default("0")
    .describe(
      "Tests only, set by the suite: `1` hashes passwords with Argon2's smallest parameters (`lib/auth/test-hashing.ts`), on the suite's own throw-away databases only; with any other database start-up stops.",
    ),
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

/** The per-key and the team-wide limit (requests per minute) for keys of one environment. */
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
 * and documents http://localhost:4000 (server.mjs reads the parsed value from its runtime).
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
