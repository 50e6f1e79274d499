#!/usr/bin/env bash
# CI's second pass of the integration tests, on PostgreSQL (PG_SERVER_URL: a
# server where each run creates and drops its own database). .ci/run hands it
# to npm test, which runs it beside the end-to-end tests (scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
printf '\n\033[1m== %s\033[0m\n' "Integration tests on PostgreSQL"
TEST_DATABASE_URL="${PG_SERVER_URL:?PG_SERVER_URL names the PostgreSQL server}" \
  npx vitest run --project integration --project integration-logs
