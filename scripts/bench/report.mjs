// What npm run bench prints for one target: the saturation rows, the
// fixed-rate rows, and the ratios that matter, each beside its goal.
import { median } from "./compare.mjs";
import { reportMetricsPair } from "./metrics-pair.mjs";
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
    row("flat: misses, 1k keys in a table of 1k", r.flat.miss1k),
    row("flat: hits, the same", r.flat.hit1k),
    row("flat: misses, 1k keys in a table of 1M", r.flat.miss1m),
    row("flat: hits, the same", r.flat.hit1m),
    row("malformed keys (401)", r.malformed),
    row("production server, 1 valid key, after it", r.valid),
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
  // The goals of the many-instances issue: SQLite keeps its figures (the comparison below), PostgreSQL 0.15, with Redis 0.20.
  const ceilingGoal = { SQLite: null, PostgreSQL: atLeast(0.15), "PostgreSQL + Redis": atLeast(0.2) }[label] ?? null;
  ratio("gated / ceiling", gated / r.ceiling.rps, ceilingGoal);
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
  ratio("flat keys, misses: 1M table / 1k table", r.flat.miss1m.rps / r.flat.miss1k.rps, atLeast(0.9));
  ratio("flat keys, hits: 1M table / 1k table", r.flat.hit1m.rps / r.flat.hit1k.rps, atLeast(0.95));
  console.log(
    `    (1,000 keys cycled, each pair in alternating halves after a warm-up pass; misses through a 100-entry cache; ` +
      `seeding took ${round(r.flat.seedSeconds)} s${label === "SQLite" ? "; SQLite's default page cache (2 MB) on the gate's connection, the file in the OS page cache" : ""})`,
  );
  ratio("malformed / valid [the production server, one valid key]", r.malformed.rps / r.valid.rps, atLeast(1));
  ratio("usage on / off [pair 1]", r.usageOn.rps / r.usageOff.rps, atLeast(0.95));
  if (r.twoInstances) {
    const t = r.twoInstances;
    console.log(
      `Two instances behind the load client (half the connections each): ${round(t.instances.rps)} rps in all ` +
        `(p99 ${round(t.instances.p99Us)} µs, non-2xx ${t.instances.non2xx}); two ceilings: ${round(t.ceilings.rps)} rps`,
    );
    ratio("two instances / two ceilings", t.instances.rps / t.ceilings.rps, ceilingGoal);
  }
  if (r.revocation) reportRevocation(r.revocation);
  if (r.compare) reportComparison(r.compare);
  if (r.metrics) reportMetricsPair(r.metrics);
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

/** The revocation row: the revoke's latency with two instances at half load, and what was accepted after it. */
function reportRevocation(v) {
  console.log(
    `Revocation, two production instances at ${v.rate} requests/s each (open loop; served ${round(v.load.rate)}/s each, ` +
      `p99 ${round(v.load.p99Us)} µs), ${v.revocations} revocations (${v.underLoad} under that load), ` +
      `each confirmed by at least ${v.fewestConfirmed} of ${v.instances} instances:`,
  );
  ratio("revoke p50, ms", v.p50Ms, null, 1);
  ratio("revoke p99, ms", v.p99Ms, below(50, "ms"), 1);
  console.log(
    `    (slowest: ${round(v.maxMs, 1)} ms; of which the fence, from the revoke's commit: p50 ${round(v.fenceP50Ms, 1)} ms, ` +
      `p99 ${round(v.fenceP99Ms, 1)} ms)`,
  );
  console.log(
    `  requests sent to the other instance after the revoke's answer: ${v.sentAfter}, accepted: ${v.acceptedAfter} ` +
      `(must be 0: ${v.acceptedAfter === 0 ? "held" : "BROKEN"})`,
  );
}

/** What each step of the gate costs, in-process (scripts/bench/gate-steps.mts), in µs per call. */
export function reportSteps(costs) {
  console.log("\nWhat each step of the gate costs, in-process (median of 5 rounds, µs per call):");
  console.table(Object.entries(costs).map(([step, us]) => ({ step, µs: Number(us.toFixed(us < 10 ? 2 : 0)) })));
}
