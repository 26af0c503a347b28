#!/usr/bin/env bash
# Starts Neo4j, Redis, a worker and the API locally (idempotent). See provgraph/ops/platform.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m provgraph.ops.platform up "$@"
