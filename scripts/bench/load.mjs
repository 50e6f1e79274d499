// Saturation runs for npm run bench: CONNECTIONS connections sending requests
// back to back for a number of seconds, with wrk when it is installed (a C
// client costs this 2-core machine less CPU than one in Node), else with
// autocannon. Every throughput row of a run uses the same tool.
// A target describes what to send: { url, authorization?, keys?, connections? }, where keys
// ({ file, offset }) names a file of keys, one a line, sent in turn from
// `offset` on; the offset moves on after each run, so the next run carries
// on through the file rather than repeating the keys just sent.
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** wrk's threads: one leaves the other core to the server. */
const THREADS = Math.min(Number(process.env.BENCH_THREADS ?? 1), CONNECTIONS);
const WRK_SCRIPT = path.join(import.meta.dirname, "wrk.lua");

function hasWrk() {
  try {
    execFileSync("wrk", ["-v"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk -v prints its version and exits 1; only a missing binary is ENOENT.
    return error.code !== "ENOENT";
  }
}

export const LOAD_TOOL = hasWrk() ? "wrk" : "autocannon";

/** @returns {Promise<{ requests: number, seconds: number, p50Us: number, p99Us: number, non2xx: number, errors: number }>} */
function runWrk(target, seconds) {
  const env = { ...process.env, WRK_THREADS: String(Math.min(THREADS, target.connections ?? CONNECTIONS)) };
  if (target.authorization) env.WRK_AUTHORIZATION = target.authorization;
  if (target.keys) Object.assign(env, { WRK_KEYS_FILE: target.keys.file, WRK_KEYS_OFFSET: String(target.keys.offset) });
  const connections = target.connections ?? CONNECTIONS;
  const threads = Math.min(THREADS, connections);
  const args = ["-t", String(threads), "-c", String(connections), "-d", `${seconds}s`, "--timeout", "10s"];
  return new Promise((resolve, reject) => {
    // The key travels in the environment, never in the process list.
    execFile("wrk", [...args, "-s", WRK_SCRIPT, target.url], { env }, (error, stdout, stderr) => {
      const line = stdout.split("\n").findLast((text) => text.startsWith("{"));
      if (error || !line) return reject(new Error(`wrk failed: ${error?.message ?? ""} ${stderr}`));
      const { requests, duration_us, non2xx, errors, p50_us, p99_us } = JSON.parse(line);
      resolve({ requests, seconds: duration_us / 1e6, p50Us: p50_us, p99Us: p99_us, non2xx, errors });
    });
  });
}

const keyLists = new Map();
function keysOf(file) {
  if (!keyLists.has(file)) keyLists.set(file, readFileSync(file, "utf8").split("\n").filter(Boolean));
  return keyLists.get(file);
}

/** autocannon reports whole milliseconds: its percentiles are multiplied out to microseconds. */
function runAutocannon(target, seconds) {
  const keys = target.keys ? keysOf(target.keys.file) : null;
  let index = target.keys?.offset ?? 0;
  const rotate = (request) => ({
    ...request,
    headers: { ...request.headers, authorization: `Bearer ${keys[index++ % keys.length]}` },
  });
  const options = {
    url: target.url,
    connections: target.connections ?? CONNECTIONS,
    duration: seconds,
    headers: target.authorization ? { authorization: target.authorization } : {},
    ...(keys ? { requests: [{ setupRequest: rotate }] } : {}),
  };
  return new Promise((resolve, reject) => {
    autocannon(options, (error, r) =>
      error
        ? reject(error)
        : resolve({
            requests: r.requests.total,
            seconds: r.duration,
            p50Us: r.latency.p50 * 1000,
            p99Us: r.latency.p99 * 1000,
            non2xx: r.non2xx,
            errors: r.errors,
          }),
    );
  });
}

/**
 * One saturation run. Moves the target's key offset on by the requests sent:
 * those answered, and those still in flight when the run stopped (one per
 * connection at most), which the server may have seen.
 */
export async function saturate(target, seconds) {
  const result = await (LOAD_TOOL === "wrk" ? runWrk : runAutocannon)(target, seconds);
  if (target.keys) target.keys.offset += result.requests + CONNECTIONS;
  return { ...result, rps: result.requests / result.seconds };
}

/** Runs merged as one: requests per second over all of them; p50 and p99 are the mean of the runs'. */
export function merge(runs) {
  const sum = (field) => runs.reduce((total, run) => total + run[field], 0);
  const mean = (field) => sum(field) / runs.length;
  return {
    rps: sum("requests") / sum("seconds"),
    p50Us: mean("p50Us"),
    p99Us: mean("p99Us"),
    non2xx: sum("non2xx"),
    errors: sum("errors"),
  };
}

/**
 * Two runs (functions of a duration in seconds), each for `seconds` in all, as
 * halves in the order a, b, b, a: a machine that speeds up or slows down
 * during the pair (other work on it) then weighs on both alike.
 * @returns {Promise<{ a: object[], b: object[] }>} each side's two halves
 */
export async function alternate(runA, runB, seconds) {
  const half = Math.max(1, Math.round(seconds / 2));
  const runs = { a: [], b: [] };
  for (const side of ["a", "b", "b", "a"]) runs[side].push(await (side === "a" ? runA : runB)(half));
  return runs;
}

/**
 * `pairs` pairs of runs of `seconds` each, a beside b, the order swapped from
 * one pair to the next (a b, b a, a b, ...), so that neither side always runs
 * first: { a: [...], b: [...] }, a[i] and b[i] from the same pair.
 */
export async function inPairs(runA, runB, pairs, seconds) {
  const runs = { a: [], b: [] };
  for (let pair = 0; pair < pairs; pair++) {
    for (const side of pair % 2 === 0 ? ["a", "b"] : ["b", "a"]) {
      runs[side].push(await (side === "a" ? runA : runB)(seconds));
    }
  }
  return runs;
}

/** Two saturation targets in alternating halves, each side's halves merged. */
export async function pairedSaturation(a, b, seconds) {
  const runs = await alternate(
    (half) => saturate(a, half),
    (half) => saturate(b, half),
    seconds,
  );
  return [merge(runs.a), merge(runs.b)];
}
