import "server-only";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { db } from "../db";
import { getEnv } from "../env";
import { newFileId } from "../ids";
import type { Owner } from "../owner";

export function filesRoot(): string {
  return path.resolve(process.cwd(), getEnv().FILES_DIR);
}

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

/**
 * Stores an upload: written to a temporary name, renamed into place, then
 * recorded. A failure at any step leaves neither a file nor a row behind.
 */
export async function saveUpload(owner: Owner, file: File, purpose: string | null): Promise<FileObject> {
  const id = newFileId();
  const relative = path.join(owner.userId, id);
  const target = path.join(filesRoot(), relative);
  const temporary = `${target}.partial`;
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await writeFile(temporary, new Uint8Array(await file.arrayBuffer()));
    await rename(temporary, target);
    const row = await db.storedFile.create({
      data: {
        id,
        userId: owner.userId,
        environment: owner.environment,
        filename: file.name.slice(0, 255) || "upload",
        contentType: (file.type || "application/octet-stream").slice(0, 255),
        bytes: file.size,
        purpose,
        storagePath: relative,
      },
    });
    return toFileObject(row);
  } catch (error) {
    await rm(temporary, { force: true });
    await rm(target, { force: true });
    throw error;
  }
}

/** The caller's own file, or null: another user's or environment's file does not exist for them. */
export function findOwnFile(owner: Owner, fileId: string) {
  return db.storedFile.findFirst({ where: { id: fileId, userId: owner.userId, environment: owner.environment } });
}
