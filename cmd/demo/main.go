// Command demo is Metronome's demo: bunnies under ECS systems, a player with
// a dash on a cooldown, sound effects and music placed on the ticks' spans,
// a loading screen while a generated atlas loads in the background, a close
// confirm while there are unsaved changes, a live timing overlay with
// graphs, and a resilience panel with a control for every timing setting
// and keys that inject load.
//
//	go run ./cmd/demo
//	go run ./cmd/demo --concurrent --fixed-step-ms=20 --variable-catch-up --max-fixed-updates=2 --recovery-prefix=2 --recovery-cap-ms=100
//	go run ./cmd/demo --headless --ticks=300 --screenshot=demo.png --timing-report=timing.json
//	go run ./cmd/demo --bench=20000
//	go run ./cmd/demo --bench=50000 --interp=compare
//	go run ./cmd/demo --set timing.rate=60 --frame-cap=144 --print-config
//	go run ./cmd/demo --headless --frames=120 --set runtime.frame_cap=60 --atlas=48
//
//	go run ./cmd/webgame ./cmd/demo   # in a browser tab; flags go in the address: ?arg=--bench=10000
//
// Keys: WASD move, Space dash, F fire, = and - add and remove 100 bunnies
// (left and right click: 10), Up/Down select a panel row, Left/Right change
// it (or click the row), 1-3 stall the next update for 100 ms, 500 ms or 3 s,
// 4 suspends everything for 6 s, 5 toggles slow updates, 6 slow rendering,
// H hides the overlay, F11 switches fullscreen, F5 saves (the bunny count),
// Esc quits (asking first when the bunny count is unsaved; Esc or the close
// button again quits, any other key stays). See --help for every flag and
// internal/demo/config.toml (compiled in; a config.toml beside the binary
// or --config overrides it) for the configuration; [input.bindings] rebinds
// every key.
package main

import (
	"os"

	"github.com/metronome-go/metronome/cmd/demo/internal/gldemo"
)

func main() {
	os.Exit(gldemo.Main(os.Args[1:], os.Stdout, os.Stderr))
}
