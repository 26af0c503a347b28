#!/usr/bin/env bash
# The Arize Phoenix server in its own venv (idempotent), for the Phoenix evaluation tests.
#   deploy/phoenix-env.sh            # prints the venv's python once `phoenix` imports there
# Phoenix pins many packages (its own strawberry-graphql, SQLAlchemy, pandas, pyarrow …)
# that conflict with the project's, so it never goes into .venv: the project venv only
# gets the small `arize-phoenix-client` (extra `phoenix`). Location:
# PROVGRAPH_PHOENIX_VENV, default ~/.cache/provgraph/phoenix-venv-VERSION: a cache of one
# pinned version, shared by every checkout on the machine like the Neo4j jars (a fresh clone,
# as in CI, does not rebuild it). The version is pinned so CI installs the same server the
# tests were written against.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PHOENIX_VERSION="${PROVGRAPH_PHOENIX_VERSION:-20.26.1}"
VENV="${PROVGRAPH_PHOENIX_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/provgraph/phoenix-venv-$PHOENIX_VERSION}"
PYTHON="${PYTHON:-python3}"
probe() { "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('arize-phoenix') != '$PHOENIX_VERSION')" 2>/dev/null; }
if ! probe; then
  started=$(date +%s)
  mkdir -p "$(dirname "$VENV")"
  [[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "arize-phoenix==$PHOENIX_VERSION" >&2
  probe || { echo "error: arize-phoenix $PHOENIX_VERSION did not install in $VENV" >&2; exit 2; }
  echo "phoenix venv ready in $(( $(date +%s) - started ))s ($VENV)" >&2
fi
echo "$VENV/bin/python"
