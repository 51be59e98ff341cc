//go:build !race

package framework

import (
	"io"
	"testing"
	"time"

	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
)

// discardFile is a recording file that keeps nothing.
type discardFile struct{}

func (discardFile) Write(b []byte) (int, error) { return len(b), nil }
func (discardFile) Sync() error                 { return nil }
func (discardFile) Close() error                { return nil }

// A networked update that records the match (its settled ticks with
// every player's input, a checkpoint every tick, its pacing) allocates
// nothing in steady state, with rollbacks.
func TestNetRecordingAllocatesNothing(t *testing.T) {
	m := newMoverMatch(t, netsim.Options{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Seed: 4},
		rollback.Options{Window: rollback.DefaultWindow, HashEvery: 1})
	for i := range m.peers {
		w, err := recording.NewWriter(io.Discard, "match.rec", recording.Header{Net: &recording.Net{Players: 2, Actions: 1, Peer: i}, CheckpointEvery: 1})
		if err != nil {
			t.Fatal(err)
		}
		w.SetClock(m.clock)
		rec := &matchRecording{path: "match.rec", rec: &sessionRecording{path: "match.rec", w: w, f: discardFile{}}, every: 1, step: moverStep, stop: -1, actions: 1}
		rec.prepare(2)
		m.recs[i] = rec
		defer rec.close(recording.Clean, "")
	}
	for range 600 {
		m.update()
	}
	if got := testing.AllocsPerRun(300, m.update); got != 0 {
		t.Errorf("a recorded networked update allocates %v times, want 0", got)
	}
	for i, p := range m.peers {
		if st := p.Stats(); st.Rollbacks == 0 || st.Desyncs != 0 {
			t.Errorf("peer %d: stats %+v: want rollbacks and no desync", i, st)
		}
		if w := m.recs[i].rec.w; w.Ticks() < 800 || w.Checkpoints() < 800 {
			t.Errorf("peer %d recorded %d ticks and %d checkpoints in 900 updates", i, w.Ticks(), w.Checkpoints())
		}
	}
}
