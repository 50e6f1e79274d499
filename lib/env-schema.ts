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
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses the environment, or throws one error that names every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".") || "(env)"} ${issue.message}`);
  throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
}
