// What npm run bench prints for one target: the saturation rows, the
// fixed-rate rows, and the ratios that matter, each beside its goal.
import { median } from "./compare.mjs";
import os from "node:os";
import { CONNECTIONS, LOAD_TOOL } from "./load.mjs";

const round = (value, digits = 0) => Number(value.toFixed(digits));

const row = (name, r) => ({
  row: name,
  rps: round(r.rps),
  "p50 µs": round(r.p50Us),
  "p99 µs": round(r.p99Us),
  non2xx: r.non2xx,
  errors: r.errors,
});

const fixedRow = (name, r) => ({
  row: name,
  "rate/s": round(r.rate),
  "p50 µs": round(r.p50Us),
  "p99 µs": round(r.p99Us),
  non2xx: r.non2xx,
  errors: r.errors,
  "client cpu": `${round(r.clientCpu * 100)}%`,
});

function ratio(label, value, goal, digits = 2) {
  const verdict = goal ? ` (goal ${goal.text}: ${goal.met(value) ? "met" : "missed"})` : "";
  console.log(`  ${label}: ${Number.isFinite(value) ? value.toFixed(digits) : "n/a"}${verdict}`);
}

const atLeast = (bound) => ({ text: `≥ ${bound}`, met: (value) => value >= bound });
const below = (bound, unit) => ({ text: `< ${bound} ${unit}`, met: (value) => value < bound });

export function report(label, r, { seconds }) {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  console.log(
    `\n${label}: ${LOAD_TOOL}, ${seconds}s per row (pairs in halves), ${CONNECTIONS} connections, ` +
      `${os.cpus().length} cores (${cpu}), GET /api/v1/models${LOAD_TOOL === "wrk" ? "" : " (autocannon: whole ms)"}`,
  );
  console.table([
    row("new path, gated (usage on)  [pair 1]", r.usageOn),
    row("new path, gated, usage off  [pair 1]", r.usageOff),
    row("new path, gated (usage on)  [pair 2]", r.gated),
    row("new path, ungated baseline  [pair 2]", r.ungated),
    row("production server (server.mjs), gated", r.app),
    row("ceiling (plain node:http)", r.ceiling),
    row("gated, 1 key, 1M keys in db  [pair 3]", r.oneKey),
    row("gated, 150k keys cycled      [pair 3]", r.manyKeys),
    row("malformed keys (401)", r.malformed),
  ]);
  const f = r.fixed;
  console.log(
    `Fixed rate: ${f.rate} requests/s, half of pair 2's gated throughput, ${f.pairs} pairs of ${f.runSeconds} s runs ` +
      `(open loop, latency from each request's due time; p50 and p99 over all the runs of a side; client cpu: the share of a core the client took${f.pinned ? "; the servers' main threads on one CPU, the client on another" : ""}):`,
  );
  console.table([
    fixedRow("new path, gated (usage on)", f.gated),
    fixedRow("new path, ungated", f.ungated),
    fixedRow("ceiling: this client's floor", f.ceiling),
  ]);

  // Both pairs measured the production server for the same time: its throughput over all four halves.
  const gated = r.app.rps;
  console.log(`Ratios (gated: the production server, ${round(gated)} rps):`);
  ratio("gated / ceiling", gated / r.ceiling.rps, atLeast(0.25));
  ratio("gated / ungated on the new path [pair 2]", r.gated.rps / r.ungated.rps, atLeast(0.9));
  ratio(
    `p99 added by the gate at half load, µs (median of ${f.pairs} pairs)`,
    f.p99Added.medianUs,
    below(1000, "µs"),
    0,
  );
  console.log(
    `    (each pair: ${f.p99Added.perPairUs.map((us) => round(us)).join(", ")} µs; ` +
      `over all the requests of each side: ${round(f.gated.p99Us - f.ungated.p99Us)} µs; ` +
      `p50 added: ${round(f.p50Added.medianUs)} µs)`,
  );
  ratio("1M keys (150k distinct) / 1 key [pair 3]", r.manyKeys.rps / r.oneKey.rps, atLeast(0.95));
  console.log(
    `    (key cache during the 150k-key halves: ${r.keyCache.hits} hits, ${r.keyCache.misses} misses; ` +
      `seeding took ${round(r.seedSeconds)} s)`,
  );
  ratio("malformed / valid [valid: pair 3's 1 key]", r.malformed.rps / r.oneKey.rps, atLeast(1));
  ratio("usage on / off [pair 1]", r.usageOn.rps / r.usageOff.rps, atLeast(0.95));
  if (r.compare) reportComparison(r.compare);
  const u = r.usage;
  console.log(
    u
      ? `  usage events dropped during the run: ${u.dropped} (recorded ${u.recorded}, written ${u.written}, pending ${u.pending}) (goal: 0)`
      : "  usage events dropped during the run: unknown (the server logged no usage.closed line)",
  );
}

/** This tree's gate against another commit's, beside the A/A spread of two copies of this tree's. */
function reportComparison(c) {
  const list = (values) => values.map((value) => value.toFixed(3)).join(", ");
  const floor = Math.min(...c.aa);
  const versus = median(c.versus);
  console.log(
    `Gated, this tree / ${c.commit.name} (${c.commit.sha.slice(0, 7)}), ${c.versus.length} pairs: median ${versus.toFixed(3)} ` +
      `(pairs: ${list(c.versus)}; rps this tree ${c.headRps.map(Math.round).join(", ")}, theirs ${c.otherRps.map(Math.round).join(", ")})`,
  );
  console.log(
    `  A/A, this tree / a second copy of it: median ${median(c.aa).toFixed(3)}, from ${floor.toFixed(3)} to ${Math.max(...c.aa).toFixed(3)} ` +
      `(pairs: ${list(c.aa)})`,
  );
  console.log(
    `  goal: no lower than ${c.commit.name} by more than the A/A spread (median >= the lowest A/A ratio, ${floor.toFixed(3)}): ` +
      (versus >= floor ? "met" : "NOT met"),
  );
}
