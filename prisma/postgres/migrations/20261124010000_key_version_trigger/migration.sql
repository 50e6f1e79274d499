-- A key's version rises with every change to the key, whoever makes it. The
-- app's own writes raise it themselves (lib/db.ts), and this trigger raises it
-- for any other UPDATE that did not, such as an operator's SQL. A key's last
-- use (lastUsedAt, lastUsedIp) is not a change. Every other column counts,
-- including any added later.
--
-- The function's body is an E'' string whose statement ends are written \073:
-- Prisma's PostgreSQL adapter runs a migration by splitting it at every
-- semicolon, dollar quotes included, so none may appear inside the body.
CREATE FUNCTION "ApiKey_version_rises"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    IF NEW."version" = OLD."version"
        AND (to_jsonb(NEW) - ''lastUsedAt'' - ''lastUsedIp'') IS DISTINCT FROM (to_jsonb(OLD) - ''lastUsedAt'' - ''lastUsedIp'') THEN
        NEW."version" := OLD."version" + 1\073
    END IF\073
    RETURN NEW\073
END
';

CREATE TRIGGER "ApiKey_version_rises" BEFORE UPDATE ON "ApiKey"
FOR EACH ROW EXECUTE FUNCTION "ApiKey_version_rises"();
