-- Per-IP counts by the client an address counts as (lib/auth/client-ip.ts
-- countedClient): an IPv4 address, or an IPv6 /64. The real address stays in
-- "ip". The rows already there get a client below, so no count starts over at
-- the upgrade: an IPv4 address, mapped or not, is its own client, and an IPv6
-- one keeps its whole address (SQL cannot take a /64 on both databases) until
-- it leaves the windows, within the hour. (No semicolon in these comments: the
-- PostgreSQL adapter splits a script at each one.)
-- DropIndex
DROP INDEX "AuthAttempt_kind_ip_createdAt_idx";

-- AlterTable
ALTER TABLE "AuthAttempt" ADD COLUMN     "client" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "PendingSignUp" ADD COLUMN     "client" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "AuthAttempt_kind_client_createdAt_idx" ON "AuthAttempt"("kind", "client", "createdAt");

-- Backfill
UPDATE "AuthAttempt" SET "client" = CASE WHEN "ip" LIKE '::ffff:%.%' THEN substr("ip", 8) ELSE "ip" END;
UPDATE "PendingSignUp" SET "client" = CASE WHEN "ip" LIKE '::ffff:%.%' THEN substr("ip", 8) ELSE "ip" END;
