#!/usr/bin/env bash
# Stops what make up started.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m provgraph.ops.platform down "$@"
