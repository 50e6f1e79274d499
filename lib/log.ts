// Structured logs: one JSON line per event. Fields whose names suggest a
// secret are dropped before writing, as a second line of defence: callers log
// key ids, prefixes and user ids, never secrets.
const SECRET_FIELD = /pass(word)?|secret|token|authorization|cookie|api[_-]?key|hash/i;

type Fields = Record<string, unknown>;

function write(level: "info" | "warn" | "error", event: string, fields: Fields) {
  const safe: Fields = {};
  for (const [name, value] of Object.entries(fields)) {
    safe[name] = SECRET_FIELD.test(name) ? "[redacted]" : value;
  }
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...safe });
  // The admin CLI keeps stdout for its own output.
  if (level === "error" || process.env.KEYPORT_LOG_TO_STDERR === "1") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const log = {
  info: (event: string, fields: Fields = {}) => write("info", event, fields),
  warn: (event: string, fields: Fields = {}) => write("warn", event, fields),
  error: (event: string, fields: Fields = {}) => write("error", event, fields),
};
