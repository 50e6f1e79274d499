// What restore accepts in a backup archive's listing (tar -tf and tar -tvf, one line a member), before anything is
// extracted: the manifest, a database and files/..., as regular files and folders only (issue 36, attack review).
// tests/integration/backup-restore.test.ts restores crafted archives end to end.
import { describe, expect, it } from "vitest";
import { refusedMember, strangeName } from "@/lib/admin/backups/archive-members";

/** GNU tar's long listing of members of the given types. */
const long = (...lines: [string, string][]) =>
  lines.map(([type, name]) => `${type}rw-r--r-- root/root 10 2026-11-27 23:29 ${name}`).join("\n");

describe("a backup archive's members", () => {
  it("accepts what backup writes, with or without ./ and a folder's slash", () => {
    for (const name of [
      "manifest.json",
      "database.sqlite",
      "database.pgdump",
      "files/",
      "./files/u1/file_1",
      "files",
    ]) {
      expect(strangeName(name), name).toBeNull();
    }
    const names = "manifest.json\ndatabase.sqlite\nfiles/\nfiles/u1/\nfiles/u1/file_1\n";
    const listing = long(["-", "manifest.json"], ["-", "database.sqlite"], ["d", "files/"], ["d", "files/u1/"]);
    expect(refusedMember(names, `${listing}\n${long(["-", "files/u1/file_1"])}\n`)).toBeNull();
  });

  it("refuses names outside the expected ones", () => {
    for (const name of [
      "/etc/passwd",
      "../outside",
      "files/../../x",
      "files//x",
      "files/./x",
      "notes.txt",
      "files\\x",
    ]) {
      expect(strangeName(name), name).not.toBeNull();
    }
    expect(strangeName("files/a\\nb")).toMatch(/is not a member a backup holds/);
  });

  it("refuses a symbolic or hard link, a device, a FIFO or a socket, and a listing that does not pair up", () => {
    for (const type of ["l", "h", "c", "b", "p", "s"]) {
      expect(refusedMember("files/x\n", long([type, "files/x"])), type).toBe(
        '"files/x" is not a regular file or a folder',
      );
    }
    expect(refusedMember("manifest.json\nfiles/\n", long(["-", "manifest.json"]))).toBe(
      "its listing is not one line a member",
    );
  });
});
