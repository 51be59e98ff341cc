#!/usr/bin/env bash
# The whole test suite, as CI runs it. Run scripts/setup.sh first (make test does).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
start_all=$SECONDS
step() { printf '\n== %s (at %ds)\n' "$*" $((SECONDS - start_all)); }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then echo "gofmt would change:"; echo "$unformatted"; exit 1; fi

step "go.mod and go.sum are tidy"
if ! go mod tidy -diff; then
  echo "go mod tidy would change go.mod or go.sum (above): run go mod tidy and commit"
  exit 1
fi

step "go vet"
go vet ./...

step "exported API: every name of the last release is kept or has an Adapt line"
go run ./scripts/apicheck

step "bench module (its own go.mod, so ./... leaves it out) is tidy, builds and vets"
(cd bench && go mod tidy -diff && go vet ./...)

mapfile -t pure < <(scripts/pure-packages.sh)

step "pure packages import no cgo code"
bad=0
for p in "${pure[@]}"; do
  cgo=$(CGO_ENABLED=1 go list -deps -f '{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}' "$p" | sed '/^$/d')
  if [ -n "$cgo" ]; then echo "$p depends on cgo packages: $cgo"; bad=1; fi
done
[ $bad -eq 0 ] || exit 1
echo "${#pure[@]} pure packages checked"

step "no test double in a program"
# Test kits (runtimetest, frameworktest, rendertest, inputtest) import package
# testing; a game binary must never link them.
linked=$(go list -deps ./cmd/... ./examples/... | grep -x testing || true)
if [ -n "$linked" ]; then
  echo "a program under cmd/ or examples/ links package testing:"
  for c in $(go list ./cmd/... ./examples/...); do
    go list -deps "$c" | grep -qx testing && echo "  $c"
  done
  exit 1
fi
echo "no program links package testing"

step "pure packages with CGO_ENABLED=0"
CGO_ENABLED=0 go test -count=1 "${pure[@]}"

step "ecs built with -tags archesafe (Arche's public API for the entity pool, not pooldump.go's in-place copy)"
CGO_ENABLED=0 go test -count=1 -tags archesafe ./ecs/...

step "allocation tests of the platform packages, without the race detector"
# The race detector's instrumentation allocates, so the allocation tests are
# built without it (//go:build !race) and the race step below never runs
# them. The pure packages ran theirs above; this runs those of the GL,
# window, sound and program packages.
mapfile -t platform < <(go list ./... | grep -vxF -f <(printf '%s\n' "${pure[@]}"))
go test -count=1 -run 'Alloc' "${platform[@]}"

# Windows and macOS: the source check, go vet for both on amd64 and arm64,
# Windows executables built with MinGW, the pure packages on arm64 (qemu).
scripts/cross.sh

step "two processes play a networked match on the loopback (60 s over UDP; TestTwoProcesses plays 20 s over each transport)"
scripts/netmatch.sh 60s udp

step "the same between two network namespaces under 150 ms round trip, ±20 ms jitter and 5% loss (20 s over UDP; root, skipped without it outside CI; the hash is checked, the pacing figures printed)"
scripts/netem.sh 20s udp --checks hash

step "everything with the race detector"
go test -race -count=1 -timeout 30m ./...

if [ -n "${FUZZTIME:-}" ]; then
  step "fuzz targets, ${FUZZTIME} each"
  scripts/fuzz.sh "$FUZZTIME"
fi
echo
echo "all checks passed"
