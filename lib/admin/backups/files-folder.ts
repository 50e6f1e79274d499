import "server-only";
import type { Dirent } from "node:fs";
import { access, copyFile, link, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { INCOMING_FOLDER } from "../../files/store";
import { CheckFailed } from "../command-support";

// The uploaded files' folder (FILES_DIR) in a backup: copied after the
// database's snapshot, so every file a row of the snapshot names is on disk
// already (an upload's bytes are moved into place before its row commits);
// only pruning, which removes the bytes first, can take one away meanwhile,
// and the manifest then names it.

export interface FolderTotals {
  count: number;
  bytes: number;
}

const isGone = (error: unknown) => (error as NodeJS.ErrnoException)?.code === "ENOENT";

async function entriesOf(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isGone(error)) return [];
    throw error;
  }
}

/** A hard link where both share a filesystem (a stored file is never changed in place), else a copy; null if pruned meanwhile. */
async function copyOne(source: string, target: string): Promise<number | null> {
  try {
    await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
      if (isGone(error)) throw error;
      await copyFile(source, target);
    });
    return (await stat(target)).size;
  } catch (error) {
    if (isGone(error)) return null;
    throw error;
  }
}

async function copyFolder(from: string, to: string, totals: FolderTotals, top: boolean): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await entriesOf(from)) {
    // Uploads in progress are not files yet: their rows do not exist.
    if (top && entry.name === INCOMING_FOLDER) continue;
    const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) await copyFolder(source, target, totals, false);
    else if (entry.isFile()) {
      const bytes = await copyOne(source, target);
      if (bytes !== null) {
        totals.count += 1;
        totals.bytes += bytes;
      }
    }
  }
}

/** Copies the uploads' folder `root` into `into` (made even when there is none yet); answers what the copy holds. */
export async function copyFilesFolder(root: string, into: string): Promise<FolderTotals> {
  const totals = { count: 0, bytes: 0 };
  await copyFolder(root, into, totals, true);
  return totals;
}

/** The ids of the stored files whose bytes the copied folder lacks. */
export async function missingFiles(folder: string, rows: { id: string; storagePath: string }[]): Promise<string[]> {
  const missing: string[] = [];
  for (const row of rows) {
    const present = await access(path.join(folder, row.storagePath)).then(
      () => true,
      () => false,
    );
    if (!present) missing.push(row.id);
  }
  return missing;
}

/** Counts the regular files under `folder`; anything else (a link, a device) in a backup's folder is refused. */
async function countFiles(folder: string, refuseOthers: boolean): Promise<number> {
  let count = 0;
  for (const entry of await entriesOf(folder)) {
    const inside = path.join(folder, entry.name);
    if (entry.isDirectory()) count += await countFiles(inside, refuseOthers);
    else if (entry.isFile()) count += 1;
    else if (refuseOthers) {
      throw new CheckFailed(`The backup's files folder holds ${entry.name}, which is not a regular file: refused.`);
    }
  }
  return count;
}

/**
 * Puts a backup's files folder (unpacked beside `root`, on its filesystem) in place of `root`. A folder already
 * there that holds files is kept beside it, renamed, and its path answered; an empty one is removed.
 */
export async function putFilesInPlace(
  restored: string,
  root: string,
): Promise<{ files: number; keptAside: string | null }> {
  const files = await countFiles(restored, true);
  let keptAside: string | null = null;
  if ((await countFiles(root, false)) > 0) {
    keptAside = `${root}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await rename(root, keptAside);
  } else {
    await rm(root, { recursive: true, force: true });
  }
  await rename(restored, root);
  return { files, keptAside };
}
