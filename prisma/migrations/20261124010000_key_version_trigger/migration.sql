-- A key's version rises with every change to the key, whoever makes it. The
-- app's own writes raise it themselves (lib/db.ts), and this trigger raises it
-- for any other UPDATE that did not, such as an operator's SQL. A key's last
-- use (lastUsedAt, lastUsedIp) is not a change. A column added to ApiKey must
-- be added here too, and a migration that rebuilds the table must create the
-- trigger again: tests/integration/key-version.test.ts checks both.
CREATE TRIGGER "ApiKey_version_rises" AFTER UPDATE ON "ApiKey"
FOR EACH ROW WHEN NEW."version" = OLD."version" AND (
    NEW."id" IS NOT OLD."id" OR NEW."publicId" IS NOT OLD."publicId" OR NEW."userId" IS NOT OLD."userId"
    OR NEW."environment" IS NOT OLD."environment" OR NEW."label" IS NOT OLD."label"
    OR NEW."digest" IS NOT OLD."digest" OR NEW."displayFragment" IS NOT OLD."displayFragment"
    OR NEW."createdAt" IS NOT OLD."createdAt" OR NEW."expiresAt" IS NOT OLD."expiresAt"
    OR NEW."revokedAt" IS NOT OLD."revokedAt" OR NEW."revokedReason" IS NOT OLD."revokedReason"
    OR NEW."leakSource" IS NOT OLD."leakSource" OR NEW."leakUrl" IS NOT OLD."leakUrl"
    OR NEW."leakSeenAt" IS NOT OLD."leakSeenAt" OR NEW."decoy" IS NOT OLD."decoy"
    OR NEW."scopes" IS NOT OLD."scopes" OR NEW."allowedIps" IS NOT OLD."allowedIps"
    OR NEW."rateLimit" IS NOT OLD."rateLimit" OR NEW."rateLimitByOperator" IS NOT OLD."rateLimitByOperator"
    OR NEW."successorId" IS NOT OLD."successorId"
)
BEGIN
    UPDATE "ApiKey" SET "version" = OLD."version" + 1 WHERE "id" = NEW."id";
END;
