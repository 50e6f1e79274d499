import { describe, expect, it } from "vitest";
import { EnvError, parseEnv, publicBaseUrl } from "@/lib/env-schema";

const strongSecret = "q8Vb3kL0pZx7Rt2mWn5Yc9Hs4Jd6Fg1Ae0Uo";
const ENCRYPTION_KEY = Buffer.alloc(32, 9).toString("base64");

function messageOf(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected parseEnv to throw");
}

describe("parseEnv", () => {
  it("defaults to the embedded SQLite database and the local base URL", () => {
    const env = parseEnv({ AUTH_SECRET: "dev", ENCRYPTION_KEY });
    expect(env.DATABASE_URL).toBe("file:./data/keyport.db");
    expect(env.PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(env.NODE_ENV).toBe("development");
  });

  it("lets the default base URL follow PORT, so links and the docs' examples name the port in use", () => {
    expect(parseEnv({ AUTH_SECRET: "dev", ENCRYPTION_KEY, PORT: "4000" }).PUBLIC_BASE_URL).toBe(
      "http://localhost:4000",
    );
    expect(publicBaseUrl({ PORT: "4000" })).toBe("http://localhost:4000");
    expect(
      parseEnv({ AUTH_SECRET: "dev", ENCRYPTION_KEY, PORT: "4000", PUBLIC_BASE_URL: "https://keyport.example" })
        .PUBLIC_BASE_URL,
    ).toBe("https://keyport.example");
  });

  it("names AUTH_SECRET when it is missing, with the fix for each mode", () => {
    expect(messageOf({ NODE_ENV: "development" })).toMatch(/AUTH_SECRET is missing: `npm run dev` generates one/);
    expect(messageOf({ NODE_ENV: "production" })).toMatch(/AUTH_SECRET is required in production/);
  });

  it("refuses a weak secret in production only", () => {
    expect(messageOf({ NODE_ENV: "production", AUTH_SECRET: "short" })).toMatch(/AUTH_SECRET is too weak/);
    expect(messageOf({ NODE_ENV: "production", AUTH_SECRET: "a".repeat(40) })).toMatch(/AUTH_SECRET is too weak/);
    expect(messageOf({ NODE_ENV: "production", AUTH_SECRET: "changeme" })).toMatch(/AUTH_SECRET/);
    expect(parseEnv({ NODE_ENV: "production", AUTH_SECRET: strongSecret, ENCRYPTION_KEY }).AUTH_SECRET).toBe(
      strongSecret,
    );
    expect(parseEnv({ NODE_ENV: "development", AUTH_SECRET: "short", ENCRYPTION_KEY }).AUTH_SECRET).toBe("short");
  });

  it("names every bad variable in one message", () => {
    const message = messageOf({ DATABASE_URL: "mysql://x", PUBLIC_BASE_URL: "ftp://x", NODE_ENV: "production" });
    expect(message).toMatch(/DATABASE_URL must start with file:/);
    expect(message).toMatch(/PUBLIC_BASE_URL/);
  });

  it("accepts PostgreSQL URLs", () => {
    const env = parseEnv({ AUTH_SECRET: "x", ENCRYPTION_KEY, DATABASE_URL: "postgresql://u@localhost:5432/keyport" });
    expect(env.DATABASE_URL).toBe("postgresql://u@localhost:5432/keyport");
  });
});

describe("account security settings", () => {
  it("require ENCRYPTION_KEY, 32 bytes, apart from AUTH_SECRET", () => {
    expect(messageOf({ NODE_ENV: "production", AUTH_SECRET: strongSecret })).toMatch(
      /ENCRYPTION_KEY is required in production/,
    );
    expect(messageOf({ AUTH_SECRET: "dev" })).toMatch(/ENCRYPTION_KEY is missing: `npm run dev` generates one/);
    expect(messageOf({ AUTH_SECRET: "dev", ENCRYPTION_KEY: Buffer.alloc(16).toString("base64") })).toMatch(
      /ENCRYPTION_KEY must be 32 random bytes/,
    );
  });

  it("require SMTP_URL when the site is served over https, and not before", () => {
    const https = {
      NODE_ENV: "production",
      AUTH_SECRET: strongSecret,
      ENCRYPTION_KEY,
      PUBLIC_BASE_URL: "https://keyport.example",
    };
    expect(messageOf(https)).toMatch(/SMTP_URL is required when PUBLIC_BASE_URL is https/);
    expect(parseEnv({ ...https, SMTP_URL: "smtp://mail.example:587" }).SMTP_URL).toBe("smtp://mail.example:587");
    expect(parseEnv({ AUTH_SECRET: "dev", ENCRYPTION_KEY }).SMTP_URL).toBeUndefined();
    expect(messageOf({ AUTH_SECRET: "dev", ENCRYPTION_KEY, SMTP_URL: "http://mail" })).toMatch(/SMTP_URL/);
  });
});

describe("scale-out settings", () => {
  it("check the server-action key and the Redis URL", () => {
    const ok = parseEnv({
      AUTH_SECRET: "x",
      ENCRYPTION_KEY,
      NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      REDIS_URL: "redis://127.0.0.1:6379",
    });
    expect(ok.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(ok.RATE_LIMIT_FAIL_OPEN).toBe("0");
    expect(() => parseEnv({ AUTH_SECRET: "x", ENCRYPTION_KEY, NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "short" })).toThrow(
      /NEXT_SERVER_ACTIONS_ENCRYPTION_KEY must be a base64 AES key/,
    );
    expect(() => parseEnv({ AUTH_SECRET: "x", ENCRYPTION_KEY, REDIS_URL: "http://x" })).toThrow(/REDIS_URL/);
  });
});
