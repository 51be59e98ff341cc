#!/usr/bin/env bash
# Runs every fuzz target for a while: scripts/fuzz.sh 30s, or for a number
# of inputs each: scripts/fuzz.sh 10000x (what CI uses).
#
# Targets run two at a time (FUZZLANES, default 2): most of a target's time
# is building its instrumented test binary, which uses one core while the
# other lane fuzzes. Each target's output is printed whole when it ends,
# with the seconds it took.
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
lanes=${FUZZLANES:-2}

# one PKG TARGET: fuzz one target, retrying the engine's own deadline.
one() {
  local pkg=$1 f=$2 t=$3 start=$SECONDS out
  out=$(mktemp)
  for attempt in 1 2 3; do
    if go test -run='^$' -fuzz="^${f}\$" -fuzztime="$t" -fuzzminimizetime=3s "$pkg" >"$out" 2>&1; then
      printf 'fuzz %s %s: passed in %ds\n' "$pkg" "$f" $((SECONDS - start))
      tail -n 3 "$out"; rm -f "$out"; return 0
    fi
    if [ "$attempt" -lt 3 ] && grep -q "context deadline exceeded" "$out" && ! grep -q "Failing input written" "$out"; then
      printf 'fuzz %s %s: the engine timed out on a slow input; running it again\n' "$pkg" "$f"
      continue
    fi
    printf 'fuzz %s %s: FAILED after %ds\n' "$pkg" "$f" $((SECONDS - start))
    cat "$out"; rm -f "$out"; return 1
  done
}
export -f one

for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  for f in $(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)' "$dir"/*_test.go 2>/dev/null | awk '{print $2}'); do
    printf '%s %s\n' "$pkg" "$f"
  done
done | xargs -P "$lanes" -L 1 bash -c 'one "$0" "$1" "'"$t"'"'
