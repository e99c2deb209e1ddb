#!/usr/bin/env bash
# The server tests on a real PostgreSQL (scripts/with-postgres.sh: each file a schema of its own), in two runs:
#   - every file but the backup, restore and db:move ones, on a cluster with synchronous commits off (fast: nothing
#     there tests durability);
#   - those three on a second cluster with synchronous commits on (PG_DURABLE=1), as a restore test must see a loss.
# Files that never reach DATABASE_URL (« tests: the embedded database only ») are left out by scripts/run-tests.mjs.
# `--s3` (CI's stage, npm run test:server:pg:s3): also starts the S3 server (scripts/with-s3.sh) in each run, and the
# files marked « tests: on S3 too » store on it (the others on the directory store), with REQUIRE_S3=1: the storage
# contract fails if its S3 half did not run. CI then has one stage for PostgreSQL and S3 instead of two.
#   bash scripts/test-server-pg.sh [--s3]
set -euo pipefail
cd "$(dirname "$0")/.."
durable='(backup|backup-command|db-move)\.test\.ts$'
s3=()
if [ "${1:-}" = --s3 ]; then
  s3=(bash scripts/with-s3.sh)
  export REQUIRE_S3=1
fi
bash scripts/with-postgres.sh "${s3[@]}" node scripts/run-tests.mjs test/server --shared-processes --ignore "$durable"
PG_DURABLE=1 bash scripts/with-postgres.sh "${s3[@]}" node scripts/run-tests.mjs test/server "$durable" --shared-processes
