package main

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/runtime"
)

// follower runs the duel's world on confirmed inputs only, as a
// spectator or a peer catching up does: each tick sets the players'
// inputs and runs one update.
type follower struct {
	app     *ecs.App
	players *rollback.Players
	rows    [][]input.Stats
	ctx     runtime.TickContext
	hash    ecs.Hash
}

func (f *follower) Save(int64) error    { return nil }
func (f *follower) Restore(int64) error { return nil }
func (f *follower) Step(in *rollback.Inputs, _ bool) error {
	for p := range f.rows {
		f.rows[p] = in.Player(p)
	}
	f.players.SetLocal(f.rows)
	f.ctx.Number, f.ctx.Delta = uint64(in.Tick()), tick
	err := f.app.Update(&f.ctx)
	f.players.SetLocal(nil)
	return err
}
func (f *follower) Hash() uint64 {
	_ = f.app.HashInto(&f.hash)
	return f.hash.Total
}

// confirmedLog returns a session of n ticks of seeded play by both seats
// (three actions each, as the duel's), keeping the confirmed input log.
func confirmedLog(tb testing.TB, n int) *rollback.Session {
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 0, Delay: 2}}
	s, err := rollback.NewSession(nullSim{}, rollback.Options{Players: players, Actions: 3, Window: 8, LogBytes: rollback.DefaultLogBytes})
	if err != nil {
		tb.Fatal(err)
	}
	for k := range n {
		for p := range 2 {
			in := s.Local(p)
			x := uint64(k/7)*0x9e3779b97f4a7c15 ^ uint64(p+1)*0xbf58476d1ce4e5b9
			x ^= x >> 31
			in[0] = input.Stats{Value: float32(int(x%3) - 1), StartValue: float32(int(x%3) - 1), Mean: float32(int(x%3) - 1), Peak: float32(int(x%3) - 1)}
			in[1] = input.Stats{Value: float32(int(x/3%3) - 1), StartValue: float32(int(x/3%3) - 1), Mean: float32(int(x/3%3) - 1), Peak: float32(int(x/3%3) - 1)}
			in[2] = input.Stats{}
			if k%19 == p {
				in[2] = input.Stats{Down: true, Presses: 1, Held: tick}
			}
		}
		if _, err := s.Advance(); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

type nullSim struct{}

func (nullSim) Save(int64) error                  { return nil }
func (nullSim) Restore(int64) error               { return nil }
func (nullSim) Step(*rollback.Inputs, bool) error { return nil }
func (nullSim) Hash() uint64                      { return 0 }

// capture keeps every tick's inputs a follower ran.
type capture struct {
	nullSim
	ticks [][2][]input.Stats
}

func (c *capture) Step(in *rollback.Inputs, _ bool) error {
	c.ticks = append(c.ticks, [2][]input.Stats{append([]input.Stats(nil), in.Player(0)...), append([]input.Stats(nil), in.Player(1)...)})
	return nil
}

// stream runs fol on s's feed until it reaches tick n.
func stream(tb testing.TB, s *rollback.Session, fol *rollback.Follower, n int64) {
	feed := s.NewFeed(0)
	msg, ack := make([]byte, 0, rollback.MaxMessage), make([]byte, 0, 16)
	for fol.Tick() < n {
		if err := feed.Receive(fol.AppendAck(ack[:0])); err != nil {
			tb.Fatal(err)
		}
		for range 4 {
			m, ok, err := feed.Append(msg[:0])
			if err != nil {
				tb.Fatal(err)
			}
			if !ok {
				break
			}
			if err := fol.Receive(m); err != nil {
				tb.Fatal(err)
			}
		}
		feed.Update()
		if _, err := fol.Advance(time.Hour, int(n-fol.Tick())); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkCatchUp measures how fast a new process of the duel catches up
// on a match's confirmed inputs: the feed's messages from tick 0, four an
// update, decoded by a follower that runs the duel's world headless as
// fast as it can. The baseline of the same run, "world only", runs the
// same ticks with the same inputs set directly, so the difference is the
// catch-up stream's own cost.
func BenchmarkCatchUp(b *testing.B) {
	const ticks = 3600 // a minute of play
	s := confirmedLog(b, ticks+8)
	var c capture
	fol, err := rollback.NewFollower(&c, 2, 3, 0, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	stream(b, s, fol, ticks)
	for _, feed := range []bool{true, false} {
		name := "world only"
		if feed {
			name = "feed and follower"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			ran := 0
			for b.Loop() {
				b.StopTimer()
				sim, err := frameworktest.New(newGame(), frameworktest.Options{Sets: []string{"window.vsync=false"}})
				if err != nil {
					b.Fatal(err)
				}
				f := &follower{app: sim.App, players: ecs.GetResource[rollback.Players](sim.App.World()), rows: make([][]input.Stats, 2)}
				b.StartTimer()
				if feed {
					fol, err := rollback.NewFollower(f, 2, 3, 0, 0, nil)
					if err != nil {
						b.Fatal(err)
					}
					stream(b, s, fol, ticks)
				} else {
					for k, in := range c.ticks {
						f.rows[0], f.rows[1] = in[0], in[1]
						f.players.SetLocal(f.rows)
						f.ctx.Number, f.ctx.Delta = uint64(k), tick
						if err := f.app.Update(&f.ctx); err != nil {
							b.Fatal(err)
						}
						f.players.SetLocal(nil)
					}
				}
				ran += ticks
				b.StopTimer()
				_ = sim.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(ran)/b.Elapsed().Seconds(), "ticks/s")
		})
	}
}
