// A client that keeps its connection to the production server open between
// requests (a load balancer, a pooled HTTP agent) can send again after a pause
// longer than Node's default 5-second idle timeout, on the same socket, and gets
// an answer, not a reset.
import { connect } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { requireBuild, startInstance, stopInstances } from "../helpers/production-server";

let port: number;
beforeAll(async () => {
  requireBuild();
  ({ port } = await startInstance({ DATABASE_URL: process.env.DATABASE_URL! }));
}, 60_000);
afterAll(stopInstances);

const REQUEST = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n";

it("a keep-alive connection idle for 7.5 seconds still carries the next request", async () => {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let closed = false;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (received += chunk));
  socket.on("close", () => (closed = true));
  const answers = () => received.match(/^HTTP\/1\.1 200 /gm)?.length ?? 0;
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received: ${received}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  socket.write(REQUEST);
  await until(() => answers() === 1, "the first answer");
  await new Promise((resolve) => setTimeout(resolve, 7_500));
  // The control: without a longer idle timeout the server has closed the socket by now.
  expect(closed).toBe(false);
  socket.write(REQUEST);
  await until(() => answers() === 2, "the second answer on the same connection");
  socket.destroy();
}, 30_000);
