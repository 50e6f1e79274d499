-- The activity chain is keyed from here on (lib/audit-chain.ts): the head's
-- seal, the HMAC of the latest row's number and hash under a key derived from
-- ENCRYPTION_KEY. Empty until `admin audit:key` (run by npm run db:deploy)
-- has checked the account's chain and signed its head, or until the account's
-- next activity row.
-- AlterTable
ALTER TABLE "User" ADD COLUMN     "auditSeal" TEXT NOT NULL DEFAULT '';
