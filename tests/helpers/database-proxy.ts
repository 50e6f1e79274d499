// A TCP proxy in front of the PostgreSQL server a database URL names, that a
// test can cut and restore: cut destroys every open connection and refuses
// new ones at once (the way a dead network path or a failed-over server looks
// to a client), restore lets connections through again. hold keeps every
// byte the server sends until release (a client process stopped, or a network
// that stalls without closing, as the client sees it).
import { createConnection, createServer, type Socket } from "node:net";

export interface DatabaseProxy {
  /** The database URL, through the proxy. */
  url: string;
  cut(): void;
  restore(): void;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function databaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let open = true;
  let held: [Socket, Buffer][] | null = null;
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
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => (held ? held.push([client, chunk]) : client.write(chunk)));
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
    hold() {
      held ??= [];
    },
    release() {
      const chunks = held ?? [];
      held = null;
      for (const [client, chunk] of chunks) if (!client.destroyed) client.write(chunk);
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
