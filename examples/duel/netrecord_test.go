package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/runtime"
)

// A match over the simulated network with loss, each peer recording:
// every recording replays, with no network, to its peer's last
// confirmed hash, checking every hash on the way, and the two peers'
// recordings compare equal; a doctored one is found at its first tick.
var testNet = issueNet
var dbgHook func(p *frameworktest.Peer)
var testStart = []time.Duration{0, lateStart}

func TestMatchRecordsAndReplays(t *testing.T) {
	dir := t.TempDir()
	paths := []string{dir + "/host.rec", dir + "/joiner.rec"}
	const d = 10 * time.Second
	peers, err := frameworktest.Match(newGame, frameworktest.MatchOptions{
		Options: frameworktest.Options{Sets: []string{"runtime.frame_cap=60", "window.vsync=false", "net.delay=2", "net.hash_every=30"}},
		Net:     issueNet, For: d, Start: []time.Duration{0, lateStart},
		Records: paths,
		Script:  func(peer int, sim *frameworktest.Sim) { randomSeat(sim, 0, int(d/tick), uint64(30+peer)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range peers {
		if !p.HasHash {
			t.Fatalf("peer %d confirmed no hashed tick", i)
		}
		if p.Stats.Rollbacks == 0 {
			t.Errorf("peer %d never rolled back: the match tests nothing of resimulation", i)
		}
		r, err := recording.Open(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		h := r.Header()
		if h.Net == nil || h.Net.Players != 2 || h.Net.Actions != seatActions || h.Net.Peer != i {
			t.Errorf("peer %d's header: Net %+v", i, h.Net)
		}
		if h.CheckpointEvery != 30 {
			t.Errorf("peer %d's checkpoint interval %d, want the hash interval 30", i, h.CheckpointEvery)
		}
		var ticks, checks, pacing int
		var resim int
		var end *recording.End
		for {
			it, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			switch v := it.(type) {
			case *recording.Tick:
				if v.Update.Number != uint64(ticks) || len(v.Players) != 2*h.Net.Actions {
					t.Fatalf("peer %d: tick %d numbered %d with %d action states", i, ticks, v.Update.Number, len(v.Players))
				}
				ticks++
			case *recording.Checkpoint:
				checks++
			case *recording.Pacing:
				pacing++
				resim += v.Resimulated
			case *recording.End:
				e := *v
				end = &e
			}
		}
		r.Close()
		if end == nil || end.Outcome != recording.Clean || int64(end.Ticks) < p.Tick {
			t.Errorf("peer %d: end %+v, the match confirmed tick %d", i, end, p.Tick)
		}
		if pacing == 0 || resim == 0 {
			t.Errorf("peer %d: %d pacing items with %d ticks resimulated: the match's rollbacks are not recorded", i, pacing, resim)
		}
		st, err := os.Stat(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("peer %d: %d confirmed ticks, %d checkpoints, %d pacing items (%d ticks resimulated) in %d bytes (%.1f a tick); last confirmed hash at tick %d",
			i, ticks, checks, pacing, resim, st.Size(), float64(st.Size())/float64(ticks), p.Tick)

		res, err := framework.Replay(newGame(), paths[i], framework.ReplayOptions{})
		if err != nil {
			t.Fatalf("replaying peer %d: %v", i, err)
		}
		if !res.Confirmed || res.ConfirmedTick != p.Tick || res.ConfirmedHash != p.Hash {
			t.Errorf("peer %d's recording replays to tick %d hash %016x, the match confirmed tick %d hash %016x", i, res.ConfirmedTick, res.ConfirmedHash, p.Tick, p.Hash)
		}
		if res.Checkpoints != uint64(checks) {
			t.Errorf("peer %d: %d checkpoints matched of %d", i, res.Checkpoints, checks)
		}
		if want := framework.ConfirmedLine(p.Tick, p.Hash); !strings.HasSuffix(res.String(), "\n"+want) {
			t.Errorf("the replay's result %q does not end with %q", res, want)
		}
		replayedHashes(t, i, paths[i], p)
	}
	cmp, err := framework.Bisect(newGame(), paths[0], paths[1])
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Same() || cmp.Ticks == 0 || cmp.Checkpoints == 0 {
		t.Errorf("the peers' recordings compare: %v", cmp)
	}
	t.Logf("compare: %v", cmp)

	// A doctored recording: one player's input changed at a tick, the
	// recorded hashes kept. Its replay diverges at the next checkpoint,
	// and the comparison names the tick whose input differs.
	bad := dir + "/doctored.rec"
	const at = 200
	doctor(t, paths[1], bad, at)
	_, err = framework.Replay(newGame(), bad, framework.ReplayOptions{})
	var div *runtime.DivergenceError
	if !errors.As(err, &div) || div.Tick < at || div.Tick >= at+30 {
		t.Errorf("replaying the doctored recording: got %v, want a divergence at the first checkpoint after tick %d", err, at)
	}
	cmp, err = framework.Bisect(newGame(), paths[0], bad)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Same() || !cmp.InputDiffers || cmp.InputTick != at {
		t.Errorf("the doctored comparison: %v; want the input to differ first at tick %d", cmp, at)
	}
	t.Logf("doctored: %v", cmp)

	// A damaged recording is an error naming the file, never a panic.
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{len(data) / 2, len(data) - 3, 40} {
		broken := dir + "/broken.rec"
		b := bytes.Clone(data)
		b[at] ^= 0x5a
		if err := os.WriteFile(broken, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := framework.Replay(newGame(), broken, framework.ReplayOptions{})
		if err == nil || !strings.Contains(err.Error(), broken) {
			t.Errorf("replaying a recording damaged at byte %d: got %v, want an error naming %s", at, err, broken)
		}
	}
}

// doctor copies the match recording at from to to with player 1's fire
// pressed and pushed at tick at, and the checkpoints as recorded.
func doctor(t *testing.T, from, to string, at uint64) {
	t.Helper()
	r, err := recording.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out bytes.Buffer
	w, err := recording.NewWriter(&out, to, r.Header())
	if err != nil {
		t.Fatal(err)
	}
	actions := r.Header().Net.Actions
	for {
		it, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch v := it.(type) {
		case *recording.Tick:
			if v.Update.Number == at {
				for a := range actions {
					st := &v.Players[actions+a]
					st.Down, st.Presses, st.Value = true, 1, st.Value+0.5
				}
			}
			err = w.Append(v)
		case *recording.Checkpoint:
			err = w.Checkpoint(v)
		case *recording.Pacing:
			err = w.Pacing(v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replayedHashes replays peer i's recording at path up to the tick of its
// confirmed line, step by step: the replay's ConfirmedHashAt gives the
// peer's confirmed hash at every hashed tick both still hold, the line's
// tick among them, and the replayed world's hash there is the line's.
func replayedHashes(t *testing.T, i int, path string, p *frameworktest.Peer) {
	t.Helper()
	sim, err := frameworktest.NewReplay(newGame(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(int(p.Tick)); err != nil {
		t.Fatalf("peer %d's replay to tick %d: %v", i, p.Tick, err)
	}
	compared := 0
	for k := int64(1); k <= p.Tick; k++ {
		want, ok := p.ConfirmedHashAt(k)
		if !ok {
			continue
		}
		got, rok := sim.ConfirmedHashAt(k)
		if !rok || got != want {
			t.Errorf("peer %d's replay: ConfirmedHashAt(%d) = %016x (%v), the match's %016x", i, k, got, rok, want)
		}
		compared++
	}
	if got, ok := sim.ConfirmedHashAt(p.Tick); !ok || got != p.Hash {
		t.Errorf("peer %d's replay: ConfirmedHashAt(%d) = %016x (%v), the confirmed line's %016x", i, p.Tick, got, ok, p.Hash)
	}
	h, err := sim.App.Hash()
	if err != nil {
		t.Fatal(err)
	}
	if h.Total != p.Hash {
		t.Errorf("peer %d's replay ends %d ticks in on world hash %016x, the confirmed line %016x", i, p.Tick, h.Total, p.Hash)
	}
	if compared < 2 {
		t.Errorf("peer %d's replay: %d hashes compared, want the match's last ones", i, compared)
	}
}
