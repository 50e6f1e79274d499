// Counts what a client really sends to the rate-limit stores, so a test can
// prove a request costs one round trip: a TCP proxy that reads the PostgreSQL
// wire protocol, and Redis's own MONITOR feed.
import { randomUUID } from "node:crypto";
import { createConnection, createServer, type Socket } from "node:net";
import { Redis } from "ioredis";

/** Splits a PostgreSQL byte stream into messages and reports each one's type and body; `untyped` counts leading startup messages. */
function messageReader(untyped: number, onMessage: (type: string, body: Buffer) => void) {
  let buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const offset = untyped > 0 ? 0 : 1;
      if (buffer.length < offset + 4) return;
      const length = offset + buffer.readInt32BE(offset);
      if (buffer.length < length) return;
      if (untyped > 0) {
        // An SSLRequest (length 8, code 80877103) is followed by a second untyped startup message.
        if (length !== 8 || buffer.readInt32BE(4) !== 80877103) untyped--;
      } else {
        onMessage(String.fromCharCode(buffer[0]!), buffer.subarray(5, length));
      }
      buffer = buffer.subarray(length);
    }
  };
}

export interface PostgresWire {
  /** The database URL, through the proxy. */
  url: string;
  /** Round trips: a Sync ends each extended-protocol exchange, a Query is one simple-protocol exchange. */
  roundTrips(): number;
  /** The SQL of each statement sent: a Parse's (extended protocol) or a Query's (simple protocol). */
  statements(): string[];
  /** For each statement run (a Bind), the name it was prepared under; "" for an unnamed one. */
  executions(): string[];
  /** Resolves once every round trip sent so far has its ReadyForQuery back. */
  idle(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

/** A proxy in front of the PostgreSQL server `databaseUrl` names, counting the client's messages. */
export async function postgresWire(databaseUrl: string): Promise<PostgresWire> {
  const target = new URL(databaseUrl);
  const sent = new Map<string, number>();
  let statements: string[] = [];
  let executions: string[] = [];
  let inFlight = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
    }
    // Exchanges still waiting for their ReadyForQuery; the startup ends with one too.
    let pending = 1;
    inFlight++;
    const settle = (by: number) => {
      pending += by;
      inFlight += by;
    };
    client.on(
      "data",
      messageReader(1, (type, body) => {
        sent.set(type, (sent.get(type) ?? 0) + 1);
        // Parse: statement name, then the SQL, each NUL-terminated. Query: the SQL.
        if (type === "P") statements.push(body.toString("utf8").split("\0")[1] ?? "");
        if (type === "Q") statements.push(body.toString("utf8").split("\0")[0] ?? "");
        // Bind: the portal's name, then the prepared statement's.
        if (type === "B") executions.push(body.toString("utf8").split("\0")[1] ?? "");
        if (type === "S" || type === "Q") settle(1);
      }),
    );
    upstream.on(
      "data",
      messageReader(0, (type) => {
        if (type === "Z") settle(-1);
      }),
    );
    upstream.on("close", () => {
      sockets.delete(upstream);
      settle(-pending);
    });
    client.on("close", () => sockets.delete(client));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxied = new URL(databaseUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String((server.address() as { port: number }).port);
  const count = (type: string) => sent.get(type) ?? 0;
  return {
    url: proxied.toString(),
    roundTrips: () => count("S") + count("Q"),
    statements: () => statements,
    executions: () => executions,
    async idle() {
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    reset: () => {
      sent.clear();
      statements = [];
      executions = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface RedisCommands {
  /** The commands clients sent while `run` ran, lower-cased, in the order Redis ran them; those a script ran are left out. */
  during(run: () => Promise<unknown>): Promise<string[]>;
  /** Sends a command from a connection of its own (SCRIPT FLUSH, GET). */
  control: Redis;
  close(): Promise<void>;
}

/** Watches a Redis server's MONITOR feed: every command it runs, in order, with who sent it. */
export async function redisCommands(url: string): Promise<RedisCommands> {
  const monitor = await new Redis(url).monitor();
  const control = new Redis(url);
  const seen: string[][] = [];
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    if (source !== "lua") seen.push(args);
  });

  /** Sends a marker and waits for MONITOR to report it: everything Redis ran before is reported by then. */
  async function mark(): Promise<number> {
    const token = randomUUID();
    await control.echo(token);
    for (;;) {
      const at = seen.findIndex((args) => args[1] === token);
      if (at >= 0) return at;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  return {
    async during(run) {
      const from = await mark();
      await run();
      const to = await mark();
      return seen.slice(from + 1, to).map((args) => String(args[0]).toLowerCase());
    },
    control,
    async close() {
      monitor.disconnect();
      control.disconnect();
    },
  };
}
