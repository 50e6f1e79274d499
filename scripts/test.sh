#!/usr/bin/env bash
# The whole suite, as the README's second command runs it: lint, types,
# formatting, schema drift, unit and integration tests, a production build,
# and end-to-end tests in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }

# Fail at once, in one line, if there is no browser; never download one.
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM_PATH" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    step "Installing Debian's chromium (missing at $CHROMIUM_PATH)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing at $CHROMIUM_PATH: install it with 'sudo apt-get install -y chromium' or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi
export CHROMIUM_PATH

# The four static checks are mostly single-threaded, and the unit tests fill
# the time the longest of them (lint) runs alone: all five side by side (50 s
# here, against 68 s for the checks and then the tests), then each one's output
# under its name, and a failure if any failed.
checks_dir="$(mktemp -d)"
trap 'rm -rf "$checks_dir"' EXIT
declare -A check_pids=()
checks=(lint typecheck format:check db:check unit)
for check in "${checks[@]}"; do
  if [ "$check" = unit ]; then
    npx vitest run --project unit >"$checks_dir/$check.log" 2>&1 &
  else
    npm run -s "$check" >"$checks_dir/$check.log" 2>&1 &
  fi
  check_pids[$check]=$!
done
failed_checks=()
for check in "${checks[@]}"; do
  if [ "$check" = unit ]; then step "Unit tests"; else step "Static check: $check"; fi
  status=0
  wait "${check_pids[$check]}" || status=$?
  cat "$checks_dir/$check.log"
  [ "$status" -eq 0 ] || failed_checks+=("$check")
done
if [ ${#failed_checks[@]} -gt 0 ]; then
  echo "Failed: ${failed_checks[*]}" >&2
  exit 1
fi

# The production build and the integration tests share nothing, and the
# integration tests spend much of their time waiting on databases, mail and
# child servers: side by side they take 128 s here, one after the other 173 s.
# The docs are prerendered with the deployment's PUBLIC_BASE_URL in their
# examples; the e2e server runs at this origin and executes those examples.
# (npm run build: Next's build, then the public API's bundle, scripts/build-gate.mjs, then the docs' search index.)
# KEYPORT_TYPES_CHECKED: the typecheck above (with Next's route types, `next typegen`) passed, so the build
# skips its own run of the TypeScript compiler on the same files (20 to 40 s of one core).
KEYPORT_TYPES_CHECKED=1 PUBLIC_BASE_URL="http://localhost:${E2E_PORT:-3210}" npm run -s build >"$checks_dir/build.log" 2>&1 &
build_pid=$!
# (|| true: the build has usually ended, and a failing command in an EXIT trap under set -e fails the script.)
trap 'kill "$build_pid" 2>/dev/null || true; rm -rf "$checks_dir"' EXIT
step "Integration tests (the production build runs beside them)"
integration_status=0
npx vitest run --project integration --project integration-logs || integration_status=$?
step "Production build"
build_status=0
wait "$build_pid" || build_status=$?
cat "$checks_dir/build.log"
# Next prints a build's warnings (a file pattern that traces the whole project, a module it cannot resolve) and
# goes on; one left in the log hides the next. None is expected: each was fixed or its cause removed. Not counted:
# "No build cache found", about the checkout (a fresh clone has none), not the code.
if awk '/No build cache found/ { next } /⚠|encountered [0-9]+ warnings?/ { found = 1 } END { exit !found }' "$checks_dir/build.log"; then
  echo "The production build printed warnings (above, marked ⚠): fix them." >&2
  build_status=1
fi
if [ "$integration_status" -ne 0 ] || [ "$build_status" -ne 0 ]; then
  echo "Failed: $([ "$integration_status" -ne 0 ] && echo integration) $([ "$build_status" -ne 0 ] && echo build)" >&2
  exit 1
fi

# (The sweeps over every page, the development server's test and the upgrade tests are CI's: .ci/run runs them,
# docs/testing.md says why.)
step "End-to-end tests";    npx playwright test --project chromium --project logs
