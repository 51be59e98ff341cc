package ecs_test

import (
	"testing"

	"github.com/metronome-go/metronome/ecs/ecstest"
)

// FuzzSnapshotDecode decodes random and mutated snapshots of the churn
// game into a fresh one (seeded with its snapshots at a few ticks; see
// ecstest.FuzzDecode). Breakout, the duel and the demo have their own
// FuzzSnapshotDecode, seeded with their snapshots. For a quick look:
//
//	go test -run '^$' -fuzz FuzzSnapshotDecode -fuzztime 30s -fuzzminimizetime 1x ./ecs
func FuzzSnapshotDecode(f *testing.F) {
	a := churnGame(f)
	var seeds [][]byte
	for n := range uint64(120) {
		if n%40 == 0 {
			seeds = append(seeds, ecstest.Encode(f, a))
		}
		if err := a.Update(tick(n+1, 0)); err != nil {
			f.Fatal(err)
		}
	}
	ecstest.FuzzDecode(f, churnGame, seeds...)
}
