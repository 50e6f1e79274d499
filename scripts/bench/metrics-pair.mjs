// The metrics row (issue 36): what recording Prometheus metrics costs the
// gate. Three processes serve the gated variant (scripts/bench-server.mjs
// variants) on one database: one with METRICS_PORT (every answer counted,
// the listener open and scraped every SCRAPE_MS, more often than a Prometheus
// usually scrapes), and two without, whose pair is the A/A spread: how far two
// identical servers differ on this machine today. Six rounds of a
// saturation run of each on new processes, in every order (below); a round
// gives one pair of on against off and one of off against its twin.
//   node scripts/bench/metrics-pair.mjs   after `npm run build`: on a throw-away SQLite database, alone
// npm run bench runs it on its SQLite target too (scripts/bench.mjs).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { median, startGated } from "./compare.mjs";
import { benchTargets, prepareDatabase } from "./databases.mjs";
import { saturate } from "./load.mjs";
import { freePort, pausedWhile, stop } from "./processes.mjs";

const root = path.resolve(import.meta.dirname, "..", "..");
const SCRAPE_MS = 5_000;

/** Every order of the three, each a round: each server runs first, second and third, after each of the others, alike. */
const ORDERS = [
  ["on", "off", "twin"],
  ["off", "twin", "on"],
  ["twin", "on", "off"],
  ["on", "twin", "off"],
  ["twin", "off", "on"],
  ["off", "on", "twin"],
];
/** Before each run, all three idle this long: the usage writers of the run before finish (they flush every second). */
const SETTLE_MS = 1_500;

/**
 * A round per order above, each on three new processes (on, off and off's twin), each run once for `seconds` while
 * the other two are stopped. New processes every round: two processes of one build differ by up to 8% for the whole
 * of their lives (address layout, where the host put them), so one process a side puts that difference in every
 * pair alike (A/A medians of 0.92 to 0.98 across five runs made so). Every order: with the order only turned, each
 * server always ran after the same other one, and the A/A median came out at 1.09.
 */
export async function metricsPair({ env, authorization, seconds, logOf, running, others = [] }) {
  const result = { versus: [], aa: [], onRps: [], offRps: [], counted: 0, scrapes: { count: 0, bytes: 0 } };
  for (const order of ORDERS) {
    const metricsPort = await freePort();
    const start = {
      on: () => startGated(root, "metrics-on", { ...env, METRICS_PORT: String(metricsPort) }, logOf, running),
      off: () => startGated(root, "metrics-off", env, logOf, running),
      twin: () => startGated(root, "metrics-off-twin", env, logOf, running),
    };
    const servers = {};
    let stopped = [];
    // Scraped only while it runs: scrapes sent to a stopped process would be answered all at once when it goes on.
    const scraper = setInterval(() => {
      if (!servers.on || stopped.includes(servers.on.child)) return;
      fetch(`http://127.0.0.1:${metricsPort}/metrics`)
        .then((response) => response.text())
        .then((text) => {
          result.scrapes.count++;
          result.scrapes.bytes = text.length;
        })
        .catch(() => {});
    }, SCRAPE_MS);
    try {
      for (const name of order) servers[name] = await start[name]();
      const all = Object.values(servers);
      const measure = async (name, s) => {
        await sleep(SETTLE_MS);
        stopped = all.filter((server) => server !== servers[name]).map((server) => server.child);
        try {
          return await pausedWhile([...others, ...stopped], () =>
            saturate({ url: servers[name].url, authorization }, s),
          );
        } finally {
          stopped = [];
        }
      };
      for (const name of order) await measure(name, 2); // warm-up
      // And the first scrape, as Prometheus makes it when it finds the instance: it took 180 ms once (what a scrape
      // reads through loads then), later ones 3 to 9 ms; a process's start is no cost of an answer.
      await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const rps = {};
      for (const name of order) rps[name] = (await measure(name, seconds)).rps;
      result.versus.push(rps.on / rps.off);
      result.aa.push(rps.off / rps.twin);
      result.onRps.push(rps.on);
      result.offRps.push(rps.off);
      // The control: the metrics process did count what it served.
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      result.counted += text
        .split("\n")
        .filter((line) => line.startsWith('keyport_api_requests_total{route="list_models",status_class="2xx"}'))
        .map((line) => Number(line.split(" ").at(-1)))
        .reduce((sum, n) => sum + n, 0);
    } finally {
      clearInterval(scraper);
      await Promise.all(Object.values(servers).map((server) => stop(server.child)));
    }
  }
  return result;
}

export function reportMetricsPair(m) {
  const list = (values) => values.map((value) => value.toFixed(3)).join(", ");
  const versus = median(m.versus);
  console.log(
    `Gated, metrics on / off, ${m.versus.length} pairs (new processes each): median ${versus.toFixed(3)} (pairs: ${list(m.versus)}; ` +
      `rps on ${m.onRps.map(Math.round).join(", ")}, off ${m.offRps.map(Math.round).join(", ")}; ` +
      `${m.counted.toLocaleString("en")} answers counted, ${m.scrapes.count} scrapes of ${m.scrapes.bytes} bytes)`,
  );
  console.log(
    `  A/A, off / a second copy: median ${median(m.aa).toFixed(3)}, from ${Math.min(...m.aa).toFixed(3)} to ${Math.max(...m.aa).toFixed(3)} (pairs: ${list(m.aa)})`,
  );
  console.log(`  goal: median on/off ≥ 0.97: ${versus >= 0.97 ? "met" : "NOT met"}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  const target = benchTargets().find((t) => t.label === "SQLite");
  const opened = await target.open();
  const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-bench-metrics-"));
  const running = [];
  try {
    const baseEnv = {
      ...process.env,
      ...opened.env,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };
    const env = {
      ...baseEnv,
      NODE_ENV: "production",
      MAIL_DISABLED: "1",
      WORKER_DISABLED: "1",
      RATE_LIMIT_DEV_PER_MINUTE: "1000000",
    };
    const authorization = `Bearer ${prepareDatabase(baseEnv)}`;
    const result = await metricsPair({
      env,
      authorization,
      seconds,
      logOf: (name) => path.join(dir, `${name}.log`),
      running,
    });
    reportMetricsPair(result);
  } finally {
    await Promise.all(running.map(stop));
    rmSync(dir, { recursive: true, force: true });
    await opened.close();
  }
}
