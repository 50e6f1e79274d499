// A fixed-rate (open-loop) load client for npm run bench. Closed-loop tools
// (wrk, autocannon) send the next request only when an answer came back, so
// a slow answer delays the requests behind it and the latency they report
// leaves that wait out (coordinated omission); autocannon also rounds to
// whole milliseconds. Here request i is due at start + i / rate, whatever
// happened before it, and its latency is counted from that due time to the
// end of its answer, on process.hrtime.bigint(): the wait for a free socket
// and a server that fell behind both count. The due times come from a clock
// in a worker thread (scripts/bench/metronome.mjs); the requests go out over
// raw keep-alive sockets (scripts/bench/raw-http.mjs), which cost the client
// a fraction of Node's http client's CPU.
import { Worker } from "node:worker_threads";
import { getRequestBytes, rawConnection } from "./raw-http.mjs";

const SAFETY_MS = 30_000;
const WARM_UP_SECONDS = 0.5;

/** The q-th quantile (0..1) of sorted nanoseconds, in microseconds. */
function quantileUs(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] / 1000;
}

/** The q-th quantile (0..1) of one run's latencies, in microseconds. */
function runQuantileUs(run, q) {
  return quantileUs(Float64Array.from(run.latenciesNs).sort(), q);
}

/**
 * What side a adds to side b's q-th quantile, from runs made in pairs (a[i]
 * beside b[i], one right after the other): the median over the pairs of
 * quantile(a[i]) - quantile(b[i]), in microseconds, with each pair's
 * difference. A burst of CPU from elsewhere on the machine (on ours, another
 * service booting an Erlang VM once a minute) delays whichever run it falls
 * in by tens of milliseconds, and it decides the p99 of all the requests of
 * that side; the median of the pairs is the difference that comes back pair
 * after pair.
 */
export function pairedDifference(aRuns, bRuns, q) {
  if (aRuns.length !== bRuns.length || aRuns.length === 0) throw new Error("pairedDifference: runs must come in pairs");
  const perPairUs = aRuns.map((run, i) => runQuantileUs(run, q) - runQuantileUs(bRuns[i], q));
  const sorted = [...perPairUs].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  const medianUs = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { medianUs, perPairUs };
}

/** One or more runs as one: p50 and p99 in microseconds over all their requests, the rate, the client's CPU. */
export function summarize(runs) {
  const all = Float64Array.from(runs.flatMap((run) => Array.from(run.latenciesNs)));
  all.sort();
  const sum = (field) => runs.reduce((total, run) => total + run[field], 0);
  return {
    rate: sum("completed") / sum("seconds"),
    /** This process's CPU time (both threads) per second of the run: the share of a core the client took from the server. */
    clientCpu: sum("cpuSeconds") / sum("seconds"),
    p50Us: quantileUs(all, 0.5),
    p99Us: quantileUs(all, 0.99),
    non2xx: sum("non2xx"),
    errors: sum("errors"),
  };
}

/**
 * Sends `rate` requests a second for `seconds` over `sockets` keep-alive
 * connections (scripts/bench/raw-http.mjs), after `warmUpSeconds` at the same
 * rate whose requests are sent but not timed: as wrk2 calibrates before it
 * measures, so that opening the sockets and starting the clock's thread (tens
 * of milliseconds of CPU on a 2-core machine) are not counted against the
 * server. A request due while every connection waits for an answer waits for
 * the first one free, and that wait counts in its latency.
 */
export function fixedRate({ url, authorization, rate, seconds, sockets = 16, warmUpSeconds = WARM_UP_SECONDS }) {
  const { hostname: host, port, pathname, search } = new URL(url);
  const request = getRequestBytes({ host, port, path: pathname + search, authorization });
  const total = Math.max(1, Math.round(rate * seconds));
  const warmUp = Math.round(rate * warmUpSeconds);
  const intervalNs = 1e9 / rate;
  const latenciesNs = new Float64Array(total);
  const counts = { completed: 0, non2xx: 0, errors: 0 };
  let answered = 0;
  let cpuAtStart = process.cpuUsage();
  let start = 0n;
  const elapsedNs = () => Number(process.hrtime.bigint() - start);

  return new Promise((resolve) => {
    let finished = false;
    const safety = setTimeout(() => finish(), (warmUpSeconds + seconds) * 1000 + SAFETY_MS);
    /** Requests due and not yet sent, in order; connections with nothing in flight. */
    const waiting = [];
    const idle = [];
    let live = sockets;
    let sent = 0;

    function finish() {
      if (finished) return;
      finished = true;
      clearTimeout(safety);
      void clock.terminate();
      for (const connection of connections) connection.close();
      const { user, system } = process.cpuUsage(cpuAtStart);
      const cpuSeconds = (user + system) / 1e6;
      resolve({ ...counts, seconds, cpuSeconds, latenciesNs: latenciesNs.subarray(0, counts.completed) });
    }
    const settled = () => ++answered === warmUp + total && finish();

    function dispatch(connection, index) {
      if (index === warmUp) cpuAtStart = process.cpuUsage();
      connection.index = index;
      connection.send();
    }

    const connections = Array.from({ length: sockets }, () => {
      const connection = rawConnection({
        host,
        port,
        request,
        onAnswer(status) {
          const index = connection.index;
          if (index >= warmUp) {
            latenciesNs[counts.completed++] = elapsedNs() - index * intervalNs;
            if (status >= 300) counts.non2xx++;
          }
          if (waiting.length > 0) dispatch(connection, waiting.shift());
          else {
            connection.index = -1;
            idle.push(connection);
          }
          settled();
        },
        onFailure() {
          live--;
          const idleAt = idle.indexOf(connection);
          if (idleAt !== -1) idle.splice(idleAt, 1);
          else {
            // The request it carried is lost.
            if (connection.index >= warmUp) counts.errors++;
            settled();
          }
          // With no connection left, what is due or still to come can never be sent.
          if (live === 0 && !finished) {
            counts.errors += waiting.filter((index) => index >= warmUp).length;
            counts.errors += Math.max(0, warmUp + total - Math.max(sent, warmUp));
            finish();
          }
        },
      });
      connection.index = -1;
      idle.push(connection);
      return connection;
    });

    const clock = new Worker(new URL("./metronome.mjs", import.meta.url), {
      workerData: { total: warmUp + total, intervalNs },
    });
    clock.on("message", (due) => {
      if (typeof due === "bigint") return void (start = due);
      while (sent < due) {
        const index = sent++;
        const connection = idle.pop();
        if (connection) dispatch(connection, index);
        else waiting.push(index);
      }
    });
  });
}
