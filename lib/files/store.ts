import "server-only";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { db } from "../db";
import { getEnv } from "../env";
import type { Env } from "../env-schema";
import { newFileId } from "../ids";
import type { Owner } from "../owner";
import { DomainError } from "../domain-error";
import { errorCatalog } from "../errors/error-catalog";
import { cleanName } from "../text";
import type { ReceivedFile } from "./received-file";

/**
 * Where uploads live: FILES_DIR, resolved at run time. `next build` traces
 * each filesystem path it can see into the server's output, and a path built
 * from process.cwd() and a value it cannot know would be any file of the
 * project, so it traced the whole project ("Dynamic filesystem access causes
 * tracing of the whole project"). The uploads are data, never code to ship:
 * the comment tells Turbopack to leave this path alone.
 */
export function filesRoot(env: Pick<Env, "FILES_DIR"> = getEnv()): string {
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), env.FILES_DIR);
}

/** Where uploads in progress are written before they are moved into place: inside the root, on its filesystem. */
export const INCOMING_FOLDER = ".incoming";

export interface FileObject {
  id: string;
  object: "file";
  bytes: number;
  filename: string;
  content_type: string;
  purpose: string | null;
  created_at: number;
}

export function toFileObject(row: {
  id: string;
  bytes: number;
  filename: string;
  contentType: string;
  purpose: string | null;
  createdAt: Date;
}): FileObject {
  return {
    id: row.id,
    object: "file",
    bytes: row.bytes,
    filename: row.filename,
    content_type: row.contentType,
    purpose: row.purpose,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
  };
}

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

async function storedBytes(client: Pick<Tx, "storedFile">, teamId: string): Promise<number> {
  const sum = await client.storedFile.aggregate({ where: { teamId }, _sum: { bytes: true } });
  return sum._sum.bytes ?? 0;
}

const overQuota = () => new DomainError("storage_quota_exceeded", errorCatalog.storage_quota_exceeded.message);

/** 413 storage_quota_exceeded when `incoming` more bytes would not fit the team's quota. */
export async function refuseOverQuota(teamId: string, incoming: number): Promise<void> {
  if ((await storedBytes(db, teamId)) + incoming > getEnv().FILES_QUOTA_BYTES) throw overQuota();
}

/**
 * Stores a received upload: the quota is checked again with the real size,
 * under a lock on the team's row (so two uploads cannot both squeeze into the
 * last free bytes), the temporary file is renamed into place and the row is
 * written. A failure at any step leaves neither a file nor a row behind.
 * The client's file name is kept for the API's answer, cleaned of control
 * and text-direction characters; it never names anything on disk.
 */
export async function saveUpload(owner: Owner, file: ReceivedFile, purpose: string | null): Promise<FileObject> {
  const id = newFileId();
  const relative = path.join(owner.userId, id);
  const target = path.join(filesRoot(), relative);
  await mkdir(path.dirname(target), { recursive: true });
  try {
    const row = await db.$transaction(async (tx) => {
      await tx.team.update({ where: { id: owner.teamId }, data: { filesChangedAt: new Date() } });
      if ((await storedBytes(tx, owner.teamId)) + file.bytes > getEnv().FILES_QUOTA_BYTES) throw overQuota();
      await rename(file.path, target);
      return tx.storedFile.create({
        data: {
          id,
          teamId: owner.teamId,
          userId: owner.userId,
          environment: owner.environment,
          filename: cleanName(file.filename, 255) || "upload",
          contentType: cleanName(file.mimeType || "application/octet-stream", 255),
          bytes: file.bytes,
          purpose,
          storagePath: relative,
        },
      });
    });
    return toFileObject(row);
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
}

/** A file of the caller's team and environment, or null: another team's or environment's file does not exist for them. */
export function findOwnFile(owner: Owner, fileId: string) {
  return db.storedFile.findFirst({ where: { id: fileId, teamId: owner.teamId, environment: owner.environment } });
}
