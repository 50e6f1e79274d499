import "server-only";
import { createHash } from "node:crypto";
import { db } from "../db";
import { findOwnFile } from "../files/store";
import { newGenerationId } from "../ids";
import type { Owner } from "../owner";
import { toGenerationObject, type GenerationObject } from "./objects";
import { DomainError } from "../domain-error";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface GenerationInput {
  model: string;
  app: string | null;
  prompt: string;
  inputFileId: string | null;
}

export interface Created {
  generation: GenerationObject;
  replayed: boolean;
}

function requestHash(input: GenerationInput): string {
  return createHash("sha256")
    .update(JSON.stringify([input.model, input.app, input.prompt, input.inputFileId]))
    .digest("hex");
}

/**
 * Queues a generation for the owner. With an Idempotency-Key (scoped to the
 * API key, kept 24 hours), a retry with the same request answers the same
 * generation, and a different request under the same key is refused.
 */
export async function createGeneration(
  owner: Owner,
  input: GenerationInput,
  idempotencyKey: string | null,
  now = new Date(),
): Promise<Created> {
  if (input.inputFileId && !(await findOwnFile(owner, input.inputFileId))) {
    throw new DomainError("not_found", "No file with that id.", { field: "input_file_id" });
  }
  const hash = requestHash(input);
  if (idempotencyKey) {
    const replay = await replayed(owner, idempotencyKey, hash, now);
    if (replay) return { generation: replay, replayed: true };
  }
  try {
    const row = await db.$transaction(async (tx) => {
      if (idempotencyKey) {
        await tx.idempotencyRecord.deleteMany({
          where: {
            apiKeyId: owner.apiKeyId,
            key: idempotencyKey,
            createdAt: { lte: new Date(now.getTime() - IDEMPOTENCY_TTL_MS) },
          },
        });
      }
      const generation = await tx.generation.create({
        data: {
          id: newGenerationId(),
          teamId: owner.teamId,
          userId: owner.userId,
          environment: owner.environment,
          apiKeyId: owner.apiKeyId,
          model: input.model,
          app: input.app,
          prompt: input.prompt,
          inputFileId: input.inputFileId,
          status: "queued",
          createdAt: now,
        },
      });
      if (idempotencyKey) {
        await tx.idempotencyRecord.create({
          data: {
            apiKeyId: owner.apiKeyId,
            key: idempotencyKey,
            requestHash: hash,
            generationId: generation.id,
            response: JSON.stringify(toGenerationObject(generation)),
            createdAt: now,
          },
        });
      }
      return generation;
    });
    return { generation: toGenerationObject(row), replayed: false };
  } catch (error) {
    // Two retries raced: the unique (key, Idempotency-Key) lets one in; the other replays it.
    if (idempotencyKey) {
      const replay = await replayed(owner, idempotencyKey, hash, now);
      if (replay) return { generation: replay, replayed: true };
    }
    throw error;
  }
}

async function replayed(owner: Owner, key: string, hash: string, now: Date): Promise<GenerationObject | null> {
  const record = await db.idempotencyRecord.findUnique({ where: { apiKeyId_key: { apiKeyId: owner.apiKeyId, key } } });
  if (!record || record.createdAt.getTime() <= now.getTime() - IDEMPOTENCY_TTL_MS) return null;
  if (record.requestHash !== hash) {
    throw new DomainError(
      "idempotency_key_mismatch",
      "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
    );
  }
  // The first answer, as it was: reading a generation's progress needs generations:read (GET), not a retry.
  // Records written before responses were kept (at most 24 hours old) answer the generation as it is.
  // JSON this module wrote from a GenerationObject; the route's response schema checks it again on the way out.
  if (record.response) return JSON.parse(record.response) as GenerationObject;
  return findGeneration(owner, record.generationId);
}

/** A generation of the owner's team and environment, or null; with `app`, only a generation of that app. */
export async function findGeneration(owner: Owner, id: string, app?: string): Promise<GenerationObject | null> {
  const row = await db.generation.findFirst({
    where: { id, teamId: owner.teamId, environment: owner.environment, ...(app === undefined ? {} : { app }) },
  });
  return row ? toGenerationObject(row) : null;
}
