#!/usr/bin/env bash
# Runs the whole test suite against real services: installs what is missing, starts a
# throwaway Neo4j and Redis, runs pytest, and always stops the services again.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: '$1' is missing and installing it needs root (apt-get install -y $*)" >&2
    exit 2
  fi
  if [ ! -f /tmp/.provgraph-apt-updated ]; then
    apt-get update -qq && touch /tmp/.provgraph-apt-updated
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1; }
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ]; then apt_install openjdk-17-jre-headless; fi
command -v mvn >/dev/null || apt_install maven
command -v redis-server >/dev/null || apt_install redis-server
command -v dot >/dev/null || apt_install graphviz  # the DOT export test renders through Graphviz
# the console tests drive Debian's Chromium through Playwright (never a downloaded browser)
[ -x "${PROVGRAPH_CHROMIUM:-/usr/bin/chromium}" ] || apt_install chromium
.venv/bin/python -c "import playwright" 2>/dev/null || .venv/bin/pip install -q "playwright>=1.45"

# the Arize Phoenix server for tests/evals_out, in its own venv (its pins conflict with .venv);
# idempotent, ~2 min on the first run (docs/integrations.md, "Arize Phoenix")
bash deploy/phoenix-env.sh >/dev/null

started=$(date +%s)
bash deploy/test-services.sh start
trap 'bash deploy/test-services.sh stop' EXIT
set -a
# shellcheck disable=SC1091
source .provgraph/test/services.env
set +a
echo "services up in $(( $(date +%s) - started ))s"

.venv/bin/python -m pytest -q -p no:cacheprovider --durations=15 "$@"
