import "server-only";
import { chmod, lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { DATABASE_FILE, FILES_FOLDER, MANIFEST_NAME } from "./manifest.schema";

// What a backup archive may hold, checked twice: in tar's listing before
// anything is extracted, and on disk after (the archive could change between
// the two reads, and bsdtar lists a hard link as a regular file). Restore may
// run as root, so an archive is untrusted input: a link would make tar or the
// rename that follows write outside the staging folder, a device or a FIFO is
// not a file, and tar as root keeps an archive's setuid bits and modes.

/**
 * What a restored tree gets: uploads are private to the user that runs Keyport. (lib/files/store.ts leaves its modes
 * to the umask, 0644 and 0755 under the usual 022; the server reads and prunes them as their owner either way.)
 */
export const FILE_MODE = 0o600;
export const FOLDER_MODE = 0o700;

const TOP_FILES = new Set<string>([MANIFEST_NAME, DATABASE_FILE.sqlite, DATABASE_FILE.postgres]);

/** Why a member's name is not one a backup writes, or null: the manifest, a database, or a path under files/. */
export function strangeName(listed: string): string | null {
  const name = listed.replace(/^\.\//, "").replace(/\/+$/, "");
  if (TOP_FILES.has(name) || name === FILES_FOLDER) return null;
  const [top, ...rest] = name.split("/");
  if (
    top !== FILES_FOLDER ||
    rest.some((part) => part === "" || part === "." || part === ".." || part.includes("\\"))
  ) {
    return `${JSON.stringify(listed)} is not a member a backup holds`;
  }
  return null;
}

/**
 * Checks tar's listing of an archive: `names` from `tar -tf`, `long` from `tar -tvf` (one line a member in both,
 * the first character of a long line its type). Answers why it is refused, or null.
 */
export function refusedMember(names: string, long: string): string | null {
  const nameLines = names.split("\n").filter(Boolean);
  const longLines = long.split("\n").filter(Boolean);
  if (nameLines.length !== longLines.length) return "its listing is not one line a member";
  for (const [index, name] of nameLines.entries()) {
    const strange = strangeName(name);
    if (strange) return strange;
    const type = longLines[index]![0];
    // Only regular files ("-") and folders ("d"): never a symbolic or hard link, a device, a FIFO or a socket.
    if (type !== "-" && type !== "d") return `${JSON.stringify(name)} is not a regular file or a folder`;
  }
  return null;
}

async function refusedBelow(root: string, relative: string): Promise<string | null> {
  for (const entry of await readdir(path.join(root, relative))) {
    const name = path.posix.join(relative, entry);
    const info = await lstat(path.join(root, name));
    if (info.isDirectory()) {
      await chmod(path.join(root, name), FOLDER_MODE);
      const below = await refusedBelow(root, name);
      if (below) return below;
    } else if (info.isFile() && info.nlink === 1) {
      await chmod(path.join(root, name), FILE_MODE);
    } else {
      return `${JSON.stringify(name)} is not a regular file or a folder`;
    }
  }
  return null;
}

/**
 * Walks the unpacked archive in `root` without following anything: the manifest and the database must be regular
 * files, files/ a folder, and everything under it a folder or a regular file with one name (tar makes a hard link of
 * a hard-link member). Sets FILE_MODE and FOLDER_MODE, whatever the archive said. Answers why it is refused, or null.
 */
export async function refusedTree(root: string): Promise<string | null> {
  for (const entry of await readdir(root)) {
    const info = await lstat(path.join(root, entry));
    const expected = entry === FILES_FOLDER ? info.isDirectory() : TOP_FILES.has(entry) && info.isFile();
    if (!expected || (info.isFile() && info.nlink !== 1)) {
      return `${JSON.stringify(entry)} is not a member a backup holds, or not of its type`;
    }
    await chmod(path.join(root, entry), info.isFile() ? FILE_MODE : FOLDER_MODE);
  }
  return refusedBelow(root, FILES_FOLDER).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return `it holds no ${FILES_FOLDER}/ folder`;
    throw error;
  });
}
