#!/usr/bin/env bash
# Starts (or reuses) a private, throwaway PostgreSQL cluster for the test suite and prints ONLY its
# connection URL on stdout; everything else goes to stderr. Usage:
#
#   DEERFLOW_TEST_POSTGRES_URL=$(scripts/postgres-for-tests.sh) npm test
#   scripts/postgres-for-tests.sh --stop      # stop the cluster again
#
# The cluster listens on 127.0.0.1 only, on a free port, with trust auth and fsync off: it holds
# test data and nothing else. Its files live under .tools/postgres-test (git-ignored), or under a
# temp folder when the `postgres` OS user cannot reach the checkout.
# Environment: PG_BIN (folder with initdb/pg_ctl), DEERFLOW_TEST_PG_DIR (cluster folder),
# DEERFLOW_TEST_PG_PORT (listen on this port instead of a free one: a test that stops and restarts its
# own cluster keeps the URL it handed out).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DB_NAME=deerflow_test
DB_USER=postgres

log() { echo "postgres-for-tests: $*" >&2; }
die() { log "error: $*"; exit 1; }

is_root() { [ "$(id -u)" = 0 ]; }

# initdb and postgres refuse to run as root: the cluster belongs to the `postgres` OS user then.
as_owner() {
  if ! is_root; then "$@"; return; fi
  # From / : the postgres user may not be allowed into the current folder.
  if command -v runuser >/dev/null 2>&1; then (cd / && runuser -u postgres -- "$@"); return; fi
  (cd / && su postgres -s /bin/sh -c "$(printf '%q ' "$@")")
}

find_bin_dir() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return 0; fi
  local dir
  dir="$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return 0; fi
  return 1
}

install_server() {
  is_root || die "no PostgreSQL server binaries found and not root: install Debian's 'postgresql' package (or set PG_BIN)"
  log "installing Debian's postgresql package ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >&2
  apt-get install -y --no-install-recommends postgresql >&2
}

cluster_dir() {
  if [ -n "${DEERFLOW_TEST_PG_DIR:-}" ]; then echo "$DEERFLOW_TEST_PG_DIR"; return; fi
  mkdir -p "$ROOT/.tools"
  # The server runs as `postgres` when we are root; it must be able to reach its data folder.
  if ! is_root || as_owner test -x "$ROOT/.tools"; then
    echo "$ROOT/.tools/postgres-test"
  else
    echo "${TMPDIR:-/tmp}/deerflow-postgres-test-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();});"
}

url_for() { echo "postgres://$DB_USER@127.0.0.1:$1/$DB_NAME"; }

BIN="$(find_bin_dir || true)"
if [ -z "$BIN" ]; then
  install_server
  BIN="$(find_bin_dir)" || die "the postgresql package installed no server binaries"
fi

if is_root && ! id postgres >/dev/null 2>&1; then
  log "creating the postgres OS user"
  useradd --system --user-group --no-create-home --shell /bin/sh postgres
fi

BASE="$(cluster_dir)"
DATA="$BASE/data"
SOCKETS="$BASE/sockets"
PORT_FILE="$BASE/port"

if [ "${1:-}" = "--stop" ]; then
  if [ -f "$DATA/postmaster.pid" ]; then
    log "stopping the test cluster in $DATA"
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2
  else
    log "no test cluster running in $DATA"
  fi
  exit 0
fi

mkdir -p "$BASE"
if is_root; then chown postgres: "$BASE"; fi

if [ ! -f "$DATA/PG_VERSION" ]; then
  log "creating a test cluster in $DATA"
  as_owner mkdir -p "$DATA" "$SOCKETS"
  as_owner "$BIN/initdb" -D "$DATA" -U "$DB_USER" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >&2
fi
as_owner mkdir -p "$SOCKETS"

if as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  PORT="$(cat "$PORT_FILE")"
  log "reusing the running test cluster on 127.0.0.1:$PORT"
else
  PORT="${DEERFLOW_TEST_PG_PORT:-$(free_port)}"
  log "starting the test cluster on 127.0.0.1:$PORT (log: $BASE/server.log)"
  as_owner touch "$BASE/server.log"
  as_owner "$BIN/pg_ctl" -D "$DATA" -l "$BASE/server.log" -w -t 60 start \
    -o "-p $PORT -c listen_addresses=127.0.0.1 -k $SOCKETS -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
  echo "$PORT" >"$PORT_FILE"
fi

for _ in $(seq 1 60); do
  if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -U "$DB_USER"; then break; fi
  sleep 0.5
done
"$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -U "$DB_USER" || die "the test cluster does not accept connections on 127.0.0.1:$PORT"

PSQL=("$BIN/psql" -X -q -h 127.0.0.1 -p "$PORT" -U "$DB_USER" -d postgres -v ON_ERROR_STOP=1)
if [ "$("${PSQL[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]; then
  log "creating database $DB_NAME"
  # A natural-language collation, like most production databases, so that tests catch an ORDER BY
  # whose result depends on it (en-US sorts "a_b" before "a-c"). Plain default when ICU is missing.
  "${PSQL[@]}" -c "CREATE DATABASE $DB_NAME TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'" >&2 ||
    "${PSQL[@]}" -c "CREATE DATABASE $DB_NAME" >&2
fi

url_for "$PORT"
