// Structured logs: one JSON line per event. Fields whose names suggest a
// secret are dropped before writing, as a second line of defence: callers log
// key ids, prefixes and user ids, never secrets.
const SECRET_FIELD = /pass(word)?|secret|token|authorization|cookie|api[_-]?key|hash/i;

type Fields = Record<string, unknown>;

// Info lines (one per public API request among them) are gathered and written
// together once the current turn of the event loop is done: one write for many
// lines instead of a console call and a system call each, which a CPU profile
// of the gate showed as its largest cost after the socket. Warnings and errors
// are rare and wanted at once: they go straight to the console. Nothing is
// lost on exit: what is gathered is written before the process ends.
const MAX_GATHERED_LINES = 256;

// One buffer per copy of this module: Next's bundles and the gate's bundle
// each have their own, each written on its own turn and before the process
// exits (one exit listener per copy; the copies are few and made at start-up).
const gathered = { lines: [] as string[], scheduled: false };
process.on("exit", () => flushLog());

/** Writes the gathered info lines now. Tests call it to read a line without waiting a turn. */
export function flushLog(): void {
  if (gathered.lines.length === 0) return;
  const text = gathered.lines.join("\n") + "\n";
  gathered.lines = [];
  // The admin CLI keeps stdout for its own output.
  (process.env.KEYPORT_LOG_TO_STDERR === "1" ? process.stderr : process.stdout).write(text);
}

function gather(line: string) {
  gathered.lines.push(line);
  if (gathered.lines.length >= MAX_GATHERED_LINES) return flushLog();
  if (gathered.scheduled) return;
  gathered.scheduled = true;
  setImmediate(() => {
    gathered.scheduled = false;
    flushLog();
  });
}

// Whether a field name suggests a secret, remembered per name: a line is
// written per API request, and its field names come from a small fixed set.
// eslint-disable-next-line no-restricted-syntax -- a bounded memo of a pure test on a field name.
const secretNames = new Map<string, boolean>();
function suggestsSecret(name: string): boolean {
  let secret = secretNames.get(name);
  if (secret === undefined) {
    secret = SECRET_FIELD.test(name);
    if (secretNames.size < 1_000) secretNames.set(name, secret);
  }
  return secret;
}

function write(level: "info" | "warn" | "error", event: string, fields: Fields) {
  const entry: Fields = { time: new Date().toISOString(), level, event };
  for (const name in fields) {
    if (name === "time" || name === "level" || name === "event") continue;
    const value = fields[name];
    if (value !== undefined) entry[name] = suggestsSecret(name) ? "[redacted]" : value;
  }
  const line = JSON.stringify(entry);
  if (level === "info") gather(line);
  else if (level === "error" || process.env.KEYPORT_LOG_TO_STDERR === "1") console.error(line);
  else console.warn(line);
}

export const log = {
  info: (event: string, fields: Fields = {}) => write("info", event, fields),
  warn: (event: string, fields: Fields = {}) => write("warn", event, fields),
  error: (event: string, fields: Fields = {}) => write("error", event, fields),
};
