import "server-only";
import { parseArgs } from "node:util";
import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import type { Actor } from "../audit";
import { createAccountAsOperator } from "../auth/accounts";
import { emailSchema, newPasswordSchema } from "../auth/credentials.schema";
import { db } from "../db";
import { keyDigest } from "../keys/digest";
import { KeyActionError } from "../keys/errors";
import { createKey, revokeKey } from "../keys/lifecycle";
import { keyIdSchema, labelSchema } from "../keys/key.schema";
import { listKeys } from "../keys/queries";
import { KEY_ENVIRONMENTS } from "../keys/format";

const USAGE = `usage: npm run -s admin -- <command> [options]

  user:create --email E                 reads the password from standard input (one line)
  key:create --email E --env dev|prod --label L [--expires-in-days N]
                                        prints only the new secret
  key:list --email E                    prints the user's keys as JSON (no secrets)
  key:revoke --id KEY_ID                revokes a key by its id
  key:revoke --stdin                    reads a secret from standard input, revokes it,
                                        prints its id and owner as JSON
`;

interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

class UsageError extends Error {}
class NotFoundError extends Error {}

const OPERATOR = (userId: string): Actor => ({ userId, ip: null, userAgent: "keyport-admin-cli" });

async function readLine(stdin: Readable): Promise<string> {
  let data = "";
  for await (const chunk of stdin) {
    data += String(chunk);
    if (data.includes("\n")) break;
  }
  return data.split(/\r?\n/)[0] ?? "";
}

function required<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--${flag}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

async function userByEmail(email: string) {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true } });
  if (!user) throw new NotFoundError(`No user with the email ${email}.`);
  return user;
}

async function run(command: string, args: string[], io: Io): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      email: { type: "string" },
      env: { type: "string" },
      label: { type: "string" },
      "expires-in-days": { type: "string" },
      id: { type: "string" },
      stdin: { type: "boolean" },
    },
  });
  const out = (value: unknown): void => {
    io.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
  };

  switch (command) {
    case "user:create": {
      const email = required(emailSchema, values.email, "email");
      const password = await readLine(io.stdin);
      const parsedPassword = newPasswordSchema.safeParse(password);
      if (!parsedPassword.success) throw new UsageError(`password: ${parsedPassword.error.issues[0]?.message}`);
      const result = await createAccountAsOperator(email, parsedPassword.data, "keyport-admin-cli");
      if (!result.ok) throw new UsageError(result.error);
      return out({ id: result.userId, email });
    }
    case "key:create": {
      const email = required(emailSchema, values.email, "email");
      const environment = required(z.enum(KEY_ENVIRONMENTS), values.env, "env");
      const label = required(labelSchema, values.label, "label");
      const days =
        values["expires-in-days"] === undefined
          ? undefined
          : required(z.coerce.number().int().min(1).max(1830), values["expires-in-days"], "expires-in-days");
      const user = await userByEmail(email);
      const { secret } = await createKey(OPERATOR(user.id), {
        label,
        environment,
        expiresAt: days ? new Date(Date.now() + days * 86_400_000) : null,
      });
      return out(secret);
    }
    case "key:list": {
      const user = await userByEmail(required(emailSchema, values.email, "email"));
      const keys = [];
      for (let page = 1; ; page++) {
        const result = await listKeys(user.id, { page });
        keys.push(...result.items);
        if (page >= result.pageCount) break;
      }
      return out(keys);
    }
    case "key:revoke": {
      if (values.stdin) {
        const secret = (await readLine(io.stdin)).trim();
        const key = await db.apiKey.findUnique({
          where: { digest: keyDigest(secret) },
          select: { publicId: true, userId: true, revokedAt: true, user: { select: { email: true } } },
        });
        if (!key) throw new NotFoundError("No key matches that secret.");
        if (!key.revokedAt) await revokeKey(OPERATOR(key.userId), key.publicId, "revoked by an operator (break-glass)");
        return out({
          id: key.publicId,
          owner: { id: key.userId, email: key.user.email },
          alreadyRevoked: Boolean(key.revokedAt),
        });
      }
      const id = required(keyIdSchema, values.id, "id");
      const key = await db.apiKey.findUnique({ where: { publicId: id }, select: { userId: true } });
      if (!key) throw new NotFoundError(`No key with the id ${id}.`);
      const revoked = await revokeKey(OPERATOR(key.userId), id, "revoked by an operator");
      return out({ id: revoked.id, status: revoked.status });
    }
    default:
      throw new UsageError(`Unknown command: ${command || "(none)"}`);
  }
}

/** Exit codes: 0 done, 1 unknown user or key (or a refused change), 2 bad arguments. */
export async function runAdmin(argv: string[], io: Io): Promise<number> {
  const [command = "", ...rest] = argv;
  if (command === "--help" || command === "help") {
    io.stdout.write(USAGE);
    return 0;
  }
  try {
    await run(command, rest, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string })?.code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`admin: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof NotFoundError || error instanceof KeyActionError) {
      io.stderr.write(`admin: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.$disconnect();
  }
}
