// A TCP proxy in front of the PostgreSQL server a database URL names, that a
// test can cut and restore: cut destroys every open connection and refuses
// new ones at once (the way a dead network path or a failed-over server looks
// to a client), restore lets connections through again.
import { createConnection, createServer, type Socket } from "node:net";

export interface DatabaseProxy {
  /** The database URL, through the proxy. */
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function databaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let open = true;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    if (!open) {
      client.on("error", () => {});
      client.destroy();
      return;
    }
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    track(client);
    track(upstream);
    // Either side closing closes the other: a client never waits on a half-open pair.
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxied = new URL(databaseUrl);
  proxied.hostname = "127.0.0.1";
  proxied.port = String((server.address() as { port: number }).port);
  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: proxied.toString(),
    cut() {
      open = false;
      destroyAll();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
