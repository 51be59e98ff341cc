# The two commands a newcomer needs; both install what is missing first.
.PHONY: setup test demo fuzz bench

setup:
	@scripts/setup.sh

# Every check CI runs: gofmt, vet, the pure/cgo boundary, CGO_ENABLED=0 tests
# of the pure packages, the Windows/macOS/arm64 checks (scripts/cross.sh) and
# the race detector over everything.
test: setup
	@scripts/test.sh

# The demo: a window when there is a display, otherwise a headless run that
# writes out/demo.png and out/timing-report.json.
demo: setup
	@scripts/demo.sh $(ARGS)

fuzz: setup
	@scripts/fuzz.sh $(or $(FUZZTIME),30s)

bench: setup
	go test -run='^$$' -bench=. -benchmem ./...
