// The processes npm run bench starts: free ports, servers whose output goes to
// a log file (not a pipe this process would have to drain while it
// measures), their orderly stop, and a throw-away redis-server.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import os from "node:os";
import path from "node:path";

export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `url` answers below 500 (60 s at most), or the process exits. */
export async function waitForHttp(url, child) {
  for (let i = 0; i < 600; i++) {
    if (child?.exitCode !== null && child?.exitCode !== undefined) throw new Error(`${url}: the server exited`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

/** Starts `command` with stdout and stderr going to `logFile`. */
export function startLogged(command, args, { env, cwd, logFile }) {
  const fd = openSync(logFile, "a");
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  child.logFile = logFile;
  return child;
}

/** SIGTERM, then wait for the exit (server.mjs flushes the usage buffer first); SIGKILL after 20 s. */
export function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export const logSize = (file) => statSync(file).size;

/** The text a log file gained since `from` (a byte offset). */
export function logSince(file, from) {
  const length = logSize(file) - from;
  const buffer = Buffer.alloc(Math.max(0, length));
  const fd = openSync(file, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  return buffer.toString("utf8");
}

/** How the key cache answered the requests a log gained: from each api.request line's key_cache. */
export function keyCacheCounts(text) {
  const count = (value) => text.split(`"key_cache":"${value}"`).length - 1;
  return { hits: count("hit"), misses: count("miss") };
}

/** The server's last `usage.closed` line: { recorded, written, dropped, pending }, or null if it logged none. */
export function usageClosed(text) {
  const lines = text.split("\n").filter((line) => line.includes('"event":"usage.closed"'));
  return lines.length > 0 ? JSON.parse(lines.at(-1)) : null;
}

function redisAnswers(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" }, () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
  });
}

/** A redis-server on a free port, keeping nothing on disk; its URL. */
export async function startRedis(dir) {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = startLogged("redis-server", args, { logFile: path.join(dir, "redis.log") });
  for (let i = 0; i < 100 && !(await redisAnswers(port)); i++) await sleep(100);
  if (!(await redisAnswers(port))) throw new Error("redis-server did not come up");
  return { child, url: `redis://127.0.0.1:${port}` };
}

/**
 * For the fixed-rate rows: each server's main thread (the one that answers)
 * on the first CPU, this process (the load client, every thread) on the last,
 * with `taskset`, so that a latency is the server's and not the scheduler's
 * putting the client and the server's main thread on one core for a while.
 * A server's other threads (the usage writer, V8's helpers) stay free to run
 * on either, as they would on a bigger machine. Returns what undoes it. Does
 * nothing (and says so) with one CPU or without taskset.
 */
export function pinApart(servers) {
  const cpus = os.availableParallelism();
  const pin = (pid, list, allThreads) =>
    execFileSync("taskset", [...(allThreads ? ["-a"] : []), "-p", "-c", list, String(pid)], { stdio: "ignore" });
  const all = `0-${cpus - 1}`;
  try {
    if (cpus < 2) throw new Error("one CPU");
    for (const server of servers) pin(server.pid, "0", false);
    pin(process.pid, String(cpus - 1), true);
  } catch (error) {
    console.warn(`  (fixed rate: servers and client not pinned apart: ${error.message})`);
    return { pinned: false, undo() {} };
  }
  return {
    pinned: true,
    undo() {
      for (const server of servers) if (server.exitCode === null) pin(server.pid, all, false);
      pin(process.pid, all, true);
    },
  };
}

/**
 * Runs `measure` with `children` stopped (SIGSTOP), then lets them go on
 * (SIGCONT), even if it throws. For servers that are started but not measured
 * in a row: idle as they are, their timers and collections still take the CPU
 * now and then (once, an idle `next start` and its four GC threads took 200 ms
 * of CPU on both cores in 200 ms), which would be charged to whatever runs.
 */
export async function pausedWhile(children, measure) {
  const paused = children.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of paused) child.kill("SIGSTOP");
  try {
    return await measure();
  } finally {
    for (const child of paused) child.kill("SIGCONT");
  }
}
