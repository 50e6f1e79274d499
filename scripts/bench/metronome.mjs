// The open-loop client's clock (scripts/bench/open-loop.mjs), in a worker
// thread of its own: it sleeps on Atomics.wait, which takes fractions of a
// millisecond (a timer on the main thread wakes up to a millisecond late, and
// polling would take a core from the server on this 2-core machine), and
// posts the number of requests due so far whenever more fall due. The main
// thread sends them, and is left idle, so answers are timed as they arrive.
// Its first message is the start time (request i is due i intervals after
// it): taken here, once the worker is running, since starting one takes a
// few tens of milliseconds.
import { parentPort, workerData } from "node:worker_threads";

const { total, intervalNs } = workerData;
const start = process.hrtime.bigint();
parentPort.postMessage(start);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const elapsedNs = () => Number(process.hrtime.bigint() - start);

let due = 0;
while (due < total) {
  const now = elapsedNs();
  const next = due * intervalNs;
  if (next > now) {
    Atomics.wait(sleeper, 0, 0, (next - now) / 1e6);
    continue;
  }
  while (due < total && due * intervalNs <= now) due++;
  parentPort.postMessage(due);
}
