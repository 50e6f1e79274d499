import "server-only";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

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
// statement, which takes and releases SQLite's read locks (README: "Cached
// keys and instant revocation"). Where the header cannot be read, or its two copies
// disagree (a writer is in the middle of one), the mark is null and the
// version is read from the database as before.

/** Two copies of the 48-byte WalIndexHdr. */
const HEADER_BYTES = 96;
const COPY_BYTES = 48;

export interface ChangeMark {
  /** The WAL index header now, as a string to compare; null when it cannot tell. */
  read(): string | null;
  close(): void;
}

/**
 * The change mark of the WAL database at `file`. The `-shm` file is opened on
 * first use; until it exists, the mark is null.
 */
export function walChangeMark(file: string): ChangeMark {
  const buffer = Buffer.alloc(HEADER_BYTES);
  let fd: number | null = null;
  const forget = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
  };
  return {
    read() {
      try {
        fd ??= openSync(`${file}-shm`, "r");
        const bytes = readSync(fd, buffer, 0, HEADER_BYTES, 0);
        // Read from the file SQLite uses? When the last connection closes it
        // deletes the -shm, and the next one creates a new file: the one held
        // here would never change again. Checked after the read, so a header
        // read from a file still linked then came from the live one.
        if (fstatSync(fd).nlink === 0) {
          forget();
          return null;
        }
        if (bytes !== HEADER_BYTES) return null;
      } catch {
        // No -shm file yet: read the version this time, and try again next time.
        forget();
        return null;
      }
      if (buffer.compare(buffer, 0, COPY_BYTES, COPY_BYTES, HEADER_BYTES) !== 0) return null;
      return buffer.toString("latin1");
    },
    close: forget,
  };
}
