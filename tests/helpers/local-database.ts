// Tests create and drop databases. This guard makes sure they only ever do it
// on this machine: a SQLite file, or a PostgreSQL server on localhost.
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]", ""]);

export function assertLocalDatabaseUrl(url: string): void {
  if (url.startsWith("file:")) return;
  let host: string;
  try {
    const parsed = new URL(url);
    host = parsed.hostname;
    // A socket directory given as ?host=/var/run/postgresql is local too.
    const socketHost = parsed.searchParams.get("host");
    if (socketHost !== null) host = socketHost.startsWith("/") ? "" : socketHost;
  } catch {
    throw new Error("Refusing to run tests: the test database URL cannot be parsed.");
  }
  if (!LOCAL_HOSTS.has(host)) {
    throw new Error(
      `Refusing to run tests against a non-local database (host "${host}"). Use a database on localhost.`,
    );
  }
}
