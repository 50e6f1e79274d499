import "server-only";
import { constants } from "node:fs";
import { copyFile, link, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { CheckFailed, UsageError } from "../command-support";
import { FILE_MODE, refusedMember, refusedTree } from "./archive-members";
import { DATABASE_FILE, MANIFEST_NAME, manifestSchema, type Manifest } from "./manifest.schema";
import { runTool, TAR, ToolMissing } from "./run-tool";

// A backup is a plain tar archive, made and read by the system's tar (GNU tar
// on Debian; bsdtar elsewhere reads and writes the same): an operator can list
// it (tar -tf), take one part out, or compress it (restore reads a .tar.gz as
// is: both tars detect compression when reading a file). Nothing in it is
// compressed by us: pg_dump's custom format already is, uploads often are.

/** The manifest is a few kilobytes; a bigger one is not read. */
const MANIFEST_MAX_BYTES = 1024 * 1024;
/** Clocks of two machines may differ by this much; a backup taken later than that in the future is refused. */
const CLOCK_SKEW_MS = 5 * 60_000;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

/**
 * Puts the finished archive `staged` (in the private staging folder) at `to` without ever writing through a name
 * someone else could have made: a hard link fails when `to` exists, even as a link; where the filesystem has no hard
 * links, a copy that opens `to` exclusively. Either way `to` is complete from its first moment.
 */
async function putInPlace(staged: string, to: string): Promise<void> {
  try {
    await link(staged, to);
    return;
  } catch (error) {
    if (errorCode(error) === "EEXIST") throw new UsageError(`--to: ${to} exists: a backup never replaces one`);
  }
  try {
    await copyFile(staged, to, constants.COPYFILE_EXCL);
  } catch (error) {
    if (errorCode(error) === "EEXIST") throw new UsageError(`--to: ${to} exists: a backup never replaces one`);
    await rm(to, { force: true });
    throw error;
  }
}

/**
 * Writes the manifest and packs the staged folder's members into `to`, whole or not at all. The archive holds
 * password hashes and key digests: it is made 0600 inside `staging` (a folder only its owner can enter, as mkdtemp
 * makes it) and only then given its name.
 */
export async function packArchive(staging: string, manifest: Manifest, members: string[], to: string): Promise<void> {
  await writeFile(path.join(staging, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, { mode: FILE_MODE });
  const staged = path.join(staging, "archive.tar");
  // tar writes into the file made here, which keeps its mode.
  await writeFile(staged, "", { mode: FILE_MODE, flag: "wx" });
  await runTool(TAR, ["-cf", staged, "-C", staging, MANIFEST_NAME, ...members]);
  await putInPlace(staged, to);
}

/** Lists the archive and refuses one holding anything a backup does not: before a byte of it is extracted. */
async function checkListing(from: string): Promise<void> {
  let names: string;
  let long: string;
  try {
    names = await runTool(TAR, ["-tf", from]);
    long = await runTool(TAR, ["-tvf", from]);
  } catch (error) {
    if (!(error instanceof CheckFailed) || error instanceof ToolMissing) throw error;
    throw new UsageError(`--from: ${from} is not a backup archive (${error.message})`);
  }
  const refused = refusedMember(names, long);
  if (refused) throw new UsageError(`--from: ${from} is refused: ${refused}`);
}

async function readManifest(from: string, into: string): Promise<Manifest> {
  const file = path.join(into, MANIFEST_NAME);
  const size = await stat(file).then(
    (info) => info.size,
    () => null,
  );
  if (size === null) throw new UsageError(`--from: ${from} holds no ${MANIFEST_NAME}: it is not a Keyport backup`);
  if (size > MANIFEST_MAX_BYTES) throw new UsageError(`--from: ${from} is refused: its ${MANIFEST_NAME} is over 1 MB`);
  let parsed: ReturnType<typeof manifestSchema.safeParse>;
  try {
    parsed = manifestSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
  } catch {
    parsed = manifestSchema.safeParse(undefined);
  }
  if (!parsed.success) {
    throw new UsageError(`--from: ${from} has a ${MANIFEST_NAME} this release cannot read (not a Keyport backup v1)`);
  }
  // A date in the future would read as "less than a minute ago": the manifest, or a clock, is wrong.
  if (new Date(parsed.data.taken_at).getTime() > Date.now() + CLOCK_SKEW_MS) {
    throw new UsageError(
      `--from: ${from} is refused: it says it was taken at ${parsed.data.taken_at}, in the future (check the clocks)`,
    );
  }
  return parsed.data;
}

/**
 * Unpacks a backup into `into` and answers its manifest once the whole of it is checked: only a manifest, the
 * manifest's database and a files folder, as regular files and folders, 0600 and 0700. Nothing
 * outside `into` has been touched when it refuses; a file that is not a backup is a usage error naming it.
 */
export async function unpackArchive(from: string, into: string): Promise<Manifest> {
  await checkListing(from);
  try {
    // Never the archive's owners nor its modes (root keeps both by default: a setuid file would stay setuid).
    await runTool(TAR, ["-xf", from, "-C", into, "--no-same-owner", "--no-same-permissions"]);
  } catch (error) {
    if (!(error instanceof CheckFailed) || error instanceof ToolMissing) throw error;
    throw new UsageError(`--from: ${from} is not a backup archive (${error.message})`);
  }
  const refused = await refusedTree(into);
  if (refused) throw new UsageError(`--from: ${from} is refused: ${refused}`);
  const manifest = await readManifest(from, into);
  const database = await stat(path.join(into, DATABASE_FILE[manifest.provider])).catch(() => null);
  if (!database) throw new UsageError(`--from: ${from} holds no ${DATABASE_FILE[manifest.provider]}`);
  return manifest;
}
