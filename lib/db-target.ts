// Which database a DATABASE_URL names, and where that provider's schema,
// migrations and generated client live. Shared by prisma.config.ts, the app's
// Prisma client and the scripts, so all three always agree.
import path from "node:path";

export type Provider = "sqlite" | "postgres";

export const DEFAULT_DATABASE_URL = "file:./data/keyport.db";

export interface DatabaseTarget {
  provider: Provider;
  /** The URL with a relative SQLite path made absolute against the project root. */
  url: string;
  schemaPath: string;
  migrationsPath: string;
}

export function providerOf(url: string): Provider {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgres";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(
    `DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL); got "${url.split(":")[0]}:..."`,
  );
}

export function sqliteFile(url: string, root: string): string {
  const file = url.slice("file:".length);
  return path.isAbsolute(file) ? file : path.resolve(root, file);
}

export function databaseTarget(rawUrl: string | undefined, root: string): DatabaseTarget {
  const url = rawUrl && rawUrl.trim() !== "" ? rawUrl.trim() : DEFAULT_DATABASE_URL;
  const provider = providerOf(url);
  const prismaDir = path.join(root, "prisma");
  if (provider === "postgres") {
    return {
      provider,
      url,
      schemaPath: path.join(prismaDir, "postgres", "schema.prisma"),
      migrationsPath: path.join(prismaDir, "postgres", "migrations"),
    };
  }
  return {
    provider,
    url: `file:${sqliteFile(url, root)}`,
    schemaPath: path.join(prismaDir, "schema.prisma"),
    migrationsPath: path.join(prismaDir, "migrations"),
  };
}
