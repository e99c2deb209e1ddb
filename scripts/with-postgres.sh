#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster (Debian's binaries), with DATABASE_URL exported:
#   bash scripts/with-postgres.sh npm run test:server
# The cluster lives in a temp dir, listens on a free port of 127.0.0.1, and is removed on exit.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage : bash scripts/with-postgres.sh <commande…>" >&2
  exit 2
fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL est introuvable dans /usr/lib/postgresql/*/bin : installez le paquet Debian « postgresql »." >&2
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/portail-pg.XXXXXX")
chmod 755 "$dir"

# initdb refuses to run as root: as root, the cluster belongs to the postgres user.
as_owner() {
  if [ "$(id -u)" -ne 0 ]; then
    "$@"
  elif command -v runuser >/dev/null 2>&1; then
    runuser -u postgres -- "$@"
  else
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  fi
}
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "l’utilisateur postgres n’existe pas (paquet postgresql incomplet ?)" >&2; exit 1; }
  chown postgres "$dir"
fi

cleanup() {
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })")

as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
# Fast by default: fsync and synchronous commits off, for the suites that never crash the database (test:server:pg and
# the benchmarks), where a commit is answered before its write-ahead log is written. A crash (pg_ctl -m immediate) may
# then lose writes already answered, so the suites that crash it or test what survives set PG_DURABLE=1 (test:cluster):
# every commit waits for its log on disk, as in production.
if [ "${PG_DURABLE:-}" = 1 ]; then durability="-c fsync=on -c synchronous_commit=on"; else durability="-c fsync=off -c synchronous_commit=off"; fi
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 $durability -c max_connections=200" start >/dev/null \
  || { cat "$dir/postgres.log" >&2; exit 1; }
as_owner "$bin/createdb" -h "$dir" -p "$port" -U postgres portail

# For the tests that restart the database under the API (test/cluster): `"$PG_RESTART" fast|immediate` restarts this
# cluster on the same port and waits until it serves again.
cat >"$dir/restart" <<RESTART
#!/usr/bin/env bash
set -euo pipefail
$(declare -f as_owner)
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 -m "\${1:-fast}" restart >/dev/null
RESTART
chmod 755 "$dir/restart"
export PG_RESTART="$dir/restart"

export DATABASE_URL="postgres://postgres@127.0.0.1:$port/portail"
echo "[with-postgres] PostgreSQL $("$bin/postgres" --version | awk '{print $3}') sur 127.0.0.1:$port ($([ "${PG_DURABLE:-}" = 1 ] && echo 'validations synchrones' || echo 'rapide : validations asynchrones'))" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
