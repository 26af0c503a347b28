#!/usr/bin/env bash
# `make bench`: every bench/ script with small defaults, on throwaway Neo4j and Redis.
#
# One JSON file per benchmark in $BENCH_OUT (default .provgraph/bench/); a summary line
# per benchmark on stdout. Sizes are small so the whole run takes minutes on a laptop;
# the figures in docs/benchmarks.md were taken with the larger sizes shown there.
# Knobs (environment): BENCH_NODES (graph size, default 2000), BENCH_EVENTS (HTTP events,
# 2000), BENCH_QUERIES (timed queries per kind, 50), BENCH_OUTPUTS (verification jobs, 20),
# BENCH_SAMPLE (labelled rows per evaluation file, 20), BENCH_ONLY (space-separated
# subset of: verify_speed verify_quality ingest api verify_throughput).
# Not part of CI: timings on shared machines are noise, not a pass/fail signal.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
OUT=${BENCH_OUT:-.provgraph/bench}
NODES=${BENCH_NODES:-2000}
EVENTS=${BENCH_EVENTS:-2000}
QUERIES=${BENCH_QUERIES:-50}
OUTPUTS=${BENCH_OUTPUTS:-20}
SAMPLE=${BENCH_SAMPLE:-20}
ONLY=${BENCH_ONLY:-verify_speed verify_quality ingest api verify_throughput}
EVALDATA=${BENCH_EVALDATA:-../shared/evaldata}
mkdir -p "$OUT"

env_file=.provgraph/test/services.env
if [ -f "$env_file" ]; then
  echo "using the running test services ($env_file)"
else
  bash deploy/test-services.sh start
  trap 'bash deploy/test-services.sh stop' EXIT
fi
set -a
# shellcheck disable=SC1090
source "$env_file"
set +a
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
NEO4J_URI=$PROVGRAPH_TEST_NEO4J_URI
REDIS_URL=$PROVGRAPH_TEST_REDIS_URL

wanted() { [[ " $ONLY " == *" $1 "* ]]; }

run() {  # run NAME ARGS...: one benchmark, its JSON kept, its exit status reported
  local name=$1
  shift
  echo "== $name: $*"
  local started=$SECONDS
  if "$@" >"$OUT/$name.json" 2>"$OUT/$name.log"; then
    echo "   ok in $((SECONDS - started))s -> $OUT/$name.json"
  else
    echo "   FAILED ($((SECONDS - started))s); see $OUT/$name.log" >&2
    failed=1
  fi
}

failed=0
if wanted verify_speed; then
  run verify_speed "$PY" bench/verify_speed.py --json --citations 100 --ml-citations 10
fi
if wanted verify_quality; then
  if [ -d "$EVALDATA" ]; then
    run verify_quality "$PY" bench/verify_quality.py --json --data "$EVALDATA" --sample "$SAMPLE"
  else
    echo "== verify_quality: skipped ($EVALDATA not found; set BENCH_EVALDATA)"
  fi
fi
if wanted ingest; then
  run ingest env PROVGRAPH_NEO4J_URI="$NEO4J_URI" \
    "$PY" bench/ingest.py --json --nodes "$NODES" --queries "$QUERIES"
fi
if wanted api; then
  run api "$PY" bench/api.py --json --store neo4j --neo4j-uri "$NEO4J_URI" \
    --nodes "$NODES" --events "$EVENTS" --requests "$QUERIES"
fi
if wanted verify_throughput; then
  run verify_throughput "$PY" bench/verify_throughput.py --json --outputs "$OUTPUTS" \
    --stages light --redis-url "$REDIS_URL" --neo4j-uri "$NEO4J_URI"
fi
exit "$failed"
