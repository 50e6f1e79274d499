#!/usr/bin/env node
// Generates one Prisma client per provider (lib/generated/sqlite and
// lib/generated/postgres). A generated client is tied to its provider, so
// lib/db.ts picks one at start-up from DATABASE_URL. Runs on `npm install`.
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const prisma = path.join(root, "node_modules", ".bin", "prisma");

for (const schema of ["prisma/schema.prisma", "prisma/postgres/schema.prisma"]) {
  execFileSync(prisma, ["generate", "--schema", schema], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}
console.log("Generated the Prisma clients for SQLite and PostgreSQL.");
