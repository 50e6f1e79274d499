-- CreateTable
CREATE TABLE "GateInstance" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GateInstance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GateInstance_heartbeatAt_idx" ON "GateInstance"("heartbeatAt");

-- Every change to a key the gate could serve, and every change to a
-- membership, is published at commit on the channel keyport_changes, whoever
-- makes it (the app, the operator CLI, plain SQL). Each instance's listener
-- applies it to its key cache (lib/instances/listener.ts): "k <key id>" drops
-- that key, "m <team id> <user id>" drops every key of that member in that
-- team. A key's last use does not change its version (the ApiKey_version_rises
-- trigger) and is not published. A deleted row (a user's deletion cascades to
-- its keys and memberships) is published too. Statement ends are written \073
-- (see the key version migration: Prisma splits migrations at semicolons).
CREATE FUNCTION "ApiKey_changed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM pg_notify(''keyport_changes'', ''k '' || OLD."id")\073
    RETURN NULL\073
END
';

CREATE TRIGGER "ApiKey_changed_update" AFTER UPDATE ON "ApiKey"
FOR EACH ROW WHEN (NEW."version" IS DISTINCT FROM OLD."version")
EXECUTE FUNCTION "ApiKey_changed"();

CREATE TRIGGER "ApiKey_changed_delete" AFTER DELETE ON "ApiKey"
FOR EACH ROW EXECUTE FUNCTION "ApiKey_changed"();

CREATE FUNCTION "Membership_changed"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM pg_notify(''keyport_changes'', ''m '' || OLD."teamId" || '' '' || OLD."userId")\073
    RETURN NULL\073
END
';

CREATE TRIGGER "Membership_changed" AFTER UPDATE OR DELETE ON "Membership"
FOR EACH ROW EXECUTE FUNCTION "Membership_changed"();
