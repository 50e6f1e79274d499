// The two-instance row of npm run bench (PostgreSQL targets; docs/benchmark.md):
// the production server (instance A) and a second one on the same database
// (instance B) behind the load client, half of its connections to each, both
// saturated at once; against two plain node:http ceilings the same way. The
// aggregate throughput of the two instances over that of the two ceilings is
// the row's ratio. In alternating halves (instances, ceilings, ceilings,
// instances), as the other pairs.
import { CONNECTIONS, saturate } from "./load.mjs";

/** Both targets saturated at once, half the connections each: the requests of both over the run's length. */
async function both(targets, seconds) {
  const connections = Math.max(1, Math.round(CONNECTIONS / targets.length));
  const runs = await Promise.all(targets.map((target) => saturate({ ...target, connections }, seconds)));
  const requests = runs.reduce((total, run) => total + run.requests, 0);
  const longest = Math.max(...runs.map((run) => run.seconds));
  return {
    requests,
    seconds: longest,
    p99Us: Math.max(...runs.map((run) => run.p99Us)),
    non2xx: runs.reduce((total, run) => total + run.non2xx, 0),
    errors: runs.reduce((total, run) => total + run.errors, 0),
  };
}

/** `instances` and `ceilings`: two targets each. */
export async function twoInstanceRow({ instances, ceilings, seconds }) {
  const half = Math.max(1, Math.round(seconds / 2));
  const sides = { instances: [], ceilings: [] };
  for (const side of ["instances", "ceilings", "ceilings", "instances"]) {
    sides[side].push(await both(side === "instances" ? instances : ceilings, half));
  }
  const merged = (runs) => ({
    rps: runs.reduce((total, run) => total + run.requests, 0) / runs.reduce((total, run) => total + run.seconds, 0),
    p99Us: Math.max(...runs.map((run) => run.p99Us)),
    non2xx: runs.reduce((total, run) => total + run.non2xx, 0),
    errors: runs.reduce((total, run) => total + run.errors, 0),
  });
  return { instances: merged(sides.instances), ceilings: merged(sides.ceilings) };
}
