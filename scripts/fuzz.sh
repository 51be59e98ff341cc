#!/usr/bin/env bash
# Runs every fuzz target for a while: scripts/fuzz.sh 30s
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-10s}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)' "$dir"/*_test.go 2>/dev/null | awk '{print $2}'); do
    echo "fuzz $pkg $f"
    go test -run='^$' -fuzz="^${f}\$" -fuzztime="$t" -fuzzminimizetime=3s "$pkg"
  done
done
