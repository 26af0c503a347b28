#!/usr/bin/env bash
# Throwaway Neo4j (auth off) + Redis for `make test`.
#   deploy/test-services.sh start   # idempotent; writes .provgraph/test/services.env
#   deploy/test-services.sh stop    # stops both, removes services.env
#   deploy/test-services.sh status  # exit 0 when both run, 3 otherwise
# Ports: PROVGRAPH_TEST_NEO4J_PORT / PROVGRAPH_TEST_REDIS_PORT, else free ones.
# The first start downloads Neo4j's jars from Maven Central (~116 MB, ~2 min) into
# ~/.cache/provgraph; it needs java 17/21 and mvn.  Logic: provgraph/ops/services.py.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY="${PY:-.venv/bin/python}"
[[ -x "$PY" ]] || PY=python3
exec "$PY" -m provgraph.ops.services "$@"
