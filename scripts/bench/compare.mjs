// A commit's gate beside this working tree's, in the same run (issue 29: a
// change to the house must not cost the gate): the other commit is checked
// out in a git worktree, built there, and its own scripts/bench-server.mjs
// serves its gated variant on the same database, beside a second copy of
// this tree's (the A/A pair, which shows how far two identical servers
// differ on this machine today). BENCH_COMPARE names the commit (default:
// HEAD^, the parent); BENCH_COMPARE=none skips it.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inPairs, saturate } from "./load.mjs";
import { freePort, startLogged, stop, waitForHttp } from "./processes.mjs";

const root = path.resolve(import.meta.dirname, "..", "..");
export const COMPARE_PAIRS = 5;

/** The commit to compare with, or null. */
export function comparedCommit() {
  const wanted = process.env.BENCH_COMPARE ?? "HEAD^";
  if (wanted === "none") return null;
  const sha = execFileSync("git", ["rev-parse", "--verify", `${wanted}^{commit}`], { cwd: root, encoding: "utf8" });
  return { name: wanted, sha: sha.trim() };
}

/** node_modules for the other tree: hard links where the file system allows them (fast, no space), else a copy. */
function copyPackages(from, to) {
  try {
    execFileSync("cp", ["-al", from, to], { stdio: "ignore" });
  } catch {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

/** Checks `commit` out beside this tree and builds it there (its own Prisma clients, its own bundle). */
export function buildCommit(commit) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-bench-compare-"));
  const tree = path.join(dir, "tree");
  execFileSync("git", ["worktree", "add", "--detach", tree, commit.sha], { cwd: root, stdio: "ignore" });
  const close = () => {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: root, stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The same packages (a commit whose lockfile differs is compared on this tree's). Hard-linked, not a
    // symbolic link: Turbopack refuses a node_modules outside the project's root.
    copyPackages(path.join(root, "node_modules"), path.join(tree, "node_modules"));
    execFileSync(process.execPath, ["scripts/prisma-generate.mjs"], { cwd: tree, stdio: "ignore" });
    execFileSync("npm", ["run", "-s", "build"], { cwd: tree, stdio: "ignore" });
    if (!existsSync(path.join(tree, "dist", "public-api.mjs"))) throw new Error(`${commit.name} built no gate bundle`);
  } catch (error) {
    close();
    throw error;
  }
  return { tree, close };
}

/** A bench-server's gated variant from `cwd` (this tree or the other commit's), on a port of its own. */
export async function startGated(cwd, name, env, logOf, running) {
  const ports = [await freePort(), await freePort(), await freePort()];
  const child = startLogged(process.execPath, ["scripts/bench-server.mjs", "variants", ...ports.map(String)], {
    cwd,
    env,
    logFile: logOf(name),
  });
  running.push(child);
  const url = `http://127.0.0.1:${ports[0]}/api/v1/models`;
  await waitForHttp(url, child);
  return { child, url, ports };
}

/**
 * COMPARE_PAIRS pairs of saturation runs of this tree's gate against the
 * other commit's, then as many against a second copy of this tree's (A/A),
 * each pair's order swapped from the last. `others` (servers not measured)
 * stay stopped meanwhile.
 */
export async function compareGated({ tree, commit, env, authorization, seconds, logOf, running, pausedWhile, others }) {
  const head = await startGated(root, "compare-head", env, logOf, running);
  const twin = await startGated(root, "compare-twin", env, logOf, running);
  const other = await startGated(tree, "compare-other", env, logOf, running);
  const target = (server) => ({ url: server.url, authorization });
  const run = (server) => (s) => saturate(target(server), s);
  try {
    const only = (measured) => [...others, head.child, twin.child, other.child].filter((c) => !measured.includes(c));
    for (const server of [head, twin, other]) await saturate(target(server), 2);
    const versus = await pausedWhile(only([head.child, other.child]), () =>
      inPairs(run(head), run(other), COMPARE_PAIRS, seconds),
    );
    const aa = await pausedWhile(only([head.child, twin.child]), () =>
      inPairs(run(head), run(twin), COMPARE_PAIRS, seconds),
    );
    const ratios = (runs) => runs.a.map((a, i) => a.rps / runs.b[i].rps);
    return {
      commit,
      versus: ratios(versus),
      aa: ratios(aa),
      headRps: versus.a.map((x) => x.rps),
      otherRps: versus.b.map((x) => x.rps),
    };
  } finally {
    await Promise.all([head.child, twin.child, other.child].map(stop));
  }
}

export const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
