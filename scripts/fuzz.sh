#!/usr/bin/env bash
# Runs every fuzz target for a while: scripts/fuzz.sh 30s, or for a number
# of inputs each: scripts/fuzz.sh 10000x (what CI uses).
#
# A count is the reliable limit. With a duration, Go 1.26's fuzzing
# coordinator can report its own deadline as a failure, "context deadline
# exceeded" with no failing input, when a loaded machine delays a worker at
# the end (go.dev/issue/75804, fixed in Go 1.27); a count never arms that
# deadline. A target whose only failure is that message runs again, up to
# three runs in all. A failure that found an input is never retried.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-10s}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)' "$dir"/*_test.go 2>/dev/null | awk '{print $2}'); do
    echo "fuzz $pkg $f"
    for attempt in 1 2 3; do
      out=$(mktemp)
      if go test -run='^$' -fuzz="^${f}\$" -fuzztime="$t" -fuzzminimizetime=3s "$pkg" 2>&1 | tee "$out"; then
        rm -f "$out"; break
      fi
      if [ "$attempt" -lt 3 ] && grep -q "context deadline exceeded" "$out" && ! grep -q "Failing input written" "$out"; then
        echo "fuzz $pkg $f: the engine timed out on a slow input; running it again"
        rm -f "$out"; continue
      fi
      rm -f "$out"; exit 1
    done
  done
done
