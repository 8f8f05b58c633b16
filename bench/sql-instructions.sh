#!/usr/bin/env bash
# How many instructions PostgreSQL spends on one call of a statement, counted by valgrind's callgrind: the same count
# on every run of the same build and data, however busy the machine is, where a time measured on a shared machine
# moves by a third between runs (docs/decisions/0047).
#
#   bash bench/sql-instructions.sh <database> <statement file>...
#
# <database> is a seeded bench database on the server at BENCH_DATABASE_URL (default
# postgres://postgres@127.0.0.1:5432/postgres), e.g. one kept by bench:stack or bench:db with BENCH_KEEP_DATABASE=1.
# It is copied (roles and data, pg_dump and pg_restore) into a throwaway cluster in a temporary folder, which is
# removed at the end: callgrind runs a backend of its own, in single-user mode, which needs a cluster that no server
# has open. A statement file (bench/instructions/*.sql) either holds SQL that repeats its call :N times, or its setup,
# a line '-- each call' and then the call, which is made N times, each as a statement (and transaction) of its own, as
# the API makes its calls (:i is the call's number). It is run with N = 10 and N = 40, and the difference over 30
# calls is printed, so the session's start and the first calls' planning are left out. BENCH_CALLGRIND_DIR=<folder> also keeps each file's callgrind profile of the 40 calls there
# (<name>.callgrind, for callgrind_annotate --inclusive=yes). Needs valgrind (Debian's package) and PostgreSQL's server binaries; run as root, the
# cluster belongs to the postgres user.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: bash bench/sql-instructions.sh <database> <statement file>..." >&2
  exit 2
fi
database=$1
shift
source_url=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/postgres" ]; then
  echo "PostgreSQL's server binaries are not under /usr/lib/postgresql/*/bin" >&2
  exit 1
fi
if ! command -v valgrind >/dev/null; then
  echo "valgrind is missing: installing Debian's valgrind package" >&2
  apt-get install -y valgrind >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y valgrind >/dev/null; }
fi

folder=$(mktemp -d /tmp/obyect-sql-instructions.XXXXXX)
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "$(id -u)" = 0 ]; then chown postgres "$folder"; fi
cleanup() {
  as_owner "$bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap cleanup EXIT

as_owner "$bin/initdb" -D "$folder/data" -A trust -U postgres >/dev/null
# A socket in the folder and no TCP port: nothing else on the machine can meet this server.
as_owner "$bin/pg_ctl" -D "$folder/data" -o "-c listen_addresses='' -k $folder -p 5432" -l "$folder/server.log" -w start >/dev/null
source_db_url=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$source_url" "$database")
pg_dumpall --dbname="$source_url" --roles-only 2>/dev/null | psql -q -h "$folder" -U postgres -d postgres >/dev/null 2>&1 || true
createdb -h "$folder" -U postgres copy
pg_dump --dbname="$source_db_url" -Fc > "$folder/copy.dump"
if ! pg_restore -h "$folder" -U postgres -d copy "$folder/copy.dump" 2> "$folder/restore.log"; then
  echo "pg_restore reported $(grep -c 'error:' "$folder/restore.log" || true) error(s):" >&2
  grep 'error:' "$folder/restore.log" | head -5 >&2
fi
rm "$folder/copy.dump"
psql -q -h "$folder" -U postgres -d copy -c 'vacuum analyze' >/dev/null
as_owner "$bin/pg_ctl" -D "$folder/data" -w stop >/dev/null

count() { # file, N, profile file -> instructions of the whole single-user session
  if grep -q '^-- each call$' "$1"; then
    # What comes before the marker once, then the call after it N times, each a statement and so a transaction of
    # its own, as the API makes its calls; :i is the call's number.
    sed '/^-- each call$/,$d' "$1" > "$folder/run.sql"
    for i in $(seq 1 "$2"); do
      printf '\n' >> "$folder/run.sql"
      sed '1,/^-- each call$/d' "$1" | sed "s/:i/$i/g" >> "$folder/run.sql"
      printf '\n' >> "$folder/run.sql"
    done
  else
    sed "s/:N/$2/g" "$1" > "$folder/run.sql"
  fi
  chmod a+r "$folder/run.sql"
  as_owner valgrind --tool=callgrind --callgrind-out-file="$3" "$bin/postgres" --single -D "$folder/data" -j copy \
    < "$folder/run.sql" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for file in "$@"; do
  profile=/dev/null
  if [ -n "${BENCH_CALLGRIND_DIR:-}" ]; then
    mkdir -p "$BENCH_CALLGRIND_DIR"
    profile="$folder/$(basename "$file" .sql).callgrind"
  fi
  few=$(count "$file" 10 /dev/null)
  many=$(count "$file" 40 "$profile")
  if [ "$profile" != /dev/null ]; then cp "$profile" "$BENCH_CALLGRIND_DIR/"; fi
  if [ -z "$few" ] || [ -z "$many" ]; then
    echo "$(basename "$file"): callgrind printed no count" >&2
    exit 1
  fi
  printf '%s: %s instructions a call\n' "$(basename "$file" .sql)" "$(( (many - few) / 30 ))"
done
