-- GitHub's tokens are no bearer secrets to keep: Keyport never calls GitHub on
-- the user's behalf, and since this release the adapter stores an account link
-- without them (lib/auth/options.ts). This clears the ones stored before. The
-- columns stay: next-auth's adapter types still carry them.
UPDATE "Account"
SET "access_token" = NULL, "refresh_token" = NULL, "id_token" = NULL, "session_state" = NULL
WHERE "access_token" IS NOT NULL OR "refresh_token" IS NOT NULL OR "id_token" IS NOT NULL OR "session_state" IS NOT NULL;
