#!/usr/bin/env bash
# How much of one call PostgreSQL spends planning: the statements it plans (dynamic SQL plans every time; a PL/pgSQL
# statement of its own keeps its plan after its first calls) and the milliseconds they take, beside the call's
# execution time, for the same call made as an anonymous visitor many times in one session.
#
#   bash bench/sql-planning.sh <database> "<call>" [calls]
#
# e.g. bash bench/sql-planning.sh obyect_bench "public.list_ads(jsonb_build_object('search', 'snowfall'))" on the database bench:db kept
# with BENCH_KEEP_DATABASE=1. Each call is a statement (and a transaction) of its own, made 10 times to warm the
# session, then [calls] times (default 20) with log_planner_stats on, whose reports (sent to this client only, never to
# the server's log) give each planning's elapsed time. Prints the p50 over those calls of: the plans made, their
# milliseconds, and the call's execution time as `explain analyze` reports it (planning included: a function's
# statements are planned while it runs). The server is BENCH_DATABASE_URL's (default postgres://postgres@127.0.0.1:5432/postgres);
# log_planner_stats needs a superuser.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo 'usage: bash bench/sql-planning.sh <database> "<call>" [calls]' >&2
  exit 2
fi
database=$1
call=$2
calls=${3:-20}
source_url=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
url=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$source_url" "$database")

{
  echo "select set_config('request.jwt.claims', '{\"role\": \"anon\"}', false);"
  echo "set role anon;"
  for _ in $(seq 1 10); do echo "select ($call) is not null;"; done
  echo "reset role;"
  echo "set log_planner_stats = on;"
  echo "set client_min_messages = log;"
  echo "set role anon;"
  for _ in $(seq 1 "$calls"); do
    echo "\\echo obyect-call"
    echo "explain (analyze, timing off, summary on, costs off) select $call;"
  done
} | psql "$url" -X -q -v ON_ERROR_STOP=1 2>&1 | awk -v calls="$calls" '
  function p50(values, n,    i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && values[j - 1] > values[j]; j--) { t = values[j]; values[j] = values[j - 1]; values[j - 1] = t }
    return values[int((n + 1) / 2)]
  }
  /^ERROR|^psql:.*ERROR/ { print; failed = 1 }
  $0 == "obyect-call" { n++; plans[n] = 0; planning[n] = 0; next }
  n > 0 && / s elapsed$/ { plans[n]++; planning[n] += $(NF - 2) * 1000 }
  n > 0 && /Execution Time:/ { execution[n] = $(NF - 1) }
  END {
    if (failed || n < calls) { print "the call failed or did not run " calls " times" > "/dev/stderr"; exit 1 }
    printf "plans a call %d, planning %.2f ms, execution %.2f ms (p50 of %d calls)\n", p50(plans, n), p50(planning, n), p50(execution, n), n
  }'
