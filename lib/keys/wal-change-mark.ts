import "server-only";
import { closeSync, fstatSync, openSync, readSync, realpathSync } from "node:fs";

// Whether anything was committed to a SQLite database since a moment, told
// without a query: the header of its WAL index (the `-shm` file), which is
// exactly what SQLite itself reads at the start of every read transaction to
// see other connections' commits (https://www.sqlite.org/walformat.html,
// "The WAL-Index Header"). A commit returns only after both copies of the
// header were rewritten, and every commit changes them (the frame count, the
// checksums, and `iChange`, a counter "incremented with each transaction"); a
// checkpoint that restarts the WAL changes the salts. So if the header reads
// the same as before a database read, nothing committed since that read, and
// what it returned is still current.
//
// The gate's key cache uses it to skip the per-request version read on SQLite
// (lib/keys/key-cache.ts): a `pread` of 96 bytes and an `fstat` instead of a
// statement, which takes and releases SQLite's read locks (docs/architecture.md:
// "Cached keys and instant revocation"). Where the header cannot be read, or its two copies
// disagree (a writer is in the middle of one), the mark is null and the
// version is read from the database as before.

/** Two copies of the 48-byte WalIndexHdr. */
const HEADER_BYTES = 96;
const COPY_BYTES = 48;

export interface ChangeMark {
  /** The WAL index header now, as a string to compare; null when it cannot tell. */
  read(): string | null;
  /** Only once the database is closed in this process (see below). */
  close(): void;
}

/**
 * The change mark of the WAL database at `file`. The `-shm` file is opened on
 * first use, next to the database's real path (SQLite follows symbolic links:
 * a stray `-shm` beside a link is not its file); until it exists, the mark is
 * null.
 *
 * The descriptor is never closed while the database may be open in this
 * process: on Linux, closing any descriptor of a file drops every POSIX lock
 * the process holds on that file, SQLite's own included.
 */
export function walChangeMark(file: string): ChangeMark {
  const buffer = Buffer.alloc(HEADER_BYTES);
  let fd: number | null = null;
  let unusable = false;
  return {
    read() {
      if (unusable) return null;
      try {
        fd ??= openSync(`${realpathSync(file)}-shm`, "r");
      } catch {
        // No -shm file yet: read the version this time, and try again next time.
        return null;
      }
      try {
        const bytes = readSync(fd, buffer, 0, HEADER_BYTES, 0);
        // Still the file SQLite uses? It deletes the -shm when its last
        // connection closes (the gate's own connection holds it open, so this
        // takes an operator deleting it by hand), and the one held here would
        // never change again: from then on the version is always read. Checked
        // after the read, so a header read from a file still linked then came
        // from the live one.
        if (fstatSync(fd).nlink === 0) {
          unusable = true;
          return null;
        }
        if (bytes !== HEADER_BYTES) return null;
      } catch {
        return null;
      }
      if (buffer.compare(buffer, 0, COPY_BYTES, COPY_BYTES, HEADER_BYTES) !== 0) return null;
      return buffer.toString("latin1");
    },
    close() {
      unusable = true;
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
