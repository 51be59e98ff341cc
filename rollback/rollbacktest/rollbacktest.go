// Package rollbacktest runs two or more rollback sessions of a game
// against each other in one process, over a simulated network
// (rollback/netsim) on virtual time, for a game's tests: the same seed is
// the same match, every time.
//
//	nw, _ := netsim.NewNetwork(2, netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 1})
//	err := rollbacktest.Run(nw, peers, 600, rollbacktest.Options{})
//	// then read each peer's Session.Stats and Desync
//
// Production code never imports it.
package rollbacktest

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// Peer is one side of a match; its index in Run's peers is its peer
// number, the netsim peer its messages travel from.
type Peer struct {
	Session *rollback.Session
	// Input fills the session's local inputs ([rollback.Session.Local])
	// before each update; nil leaves them as they are.
	Input func(s *rollback.Session)
	// Update runs one update at now: nil calls Session.Advance; a game on
	// a rollback.App calls App.Update with a tick context for now.
	Update func(now timing.Instant) (rollback.Step, error)
	// Start delays the peer's first update (a peer that joins late).
	Start time.Duration
}

// Options says how time runs. The zero Options is 60 Hz updates checked
// every millisecond.
type Options struct {
	// Step is the time between a peer's updates; 0 is
	// timing.DefaultInterval.
	Step time.Duration
	// Quantum is the virtual-time resolution messages are delivered at;
	// 0 is 1 ms.
	Quantum time.Duration
}

// Run runs every peer until its session reaches tick ticks: each quantum
// of virtual time, every peer takes the messages that have arrived, and a
// peer whose update is due fills its input, runs the update and sends its
// message to every other peer. It returns the first error of an update or
// a Receive, naming the peer.
func Run(nw *netsim.Network, peers []Peer, ticks int64, opts Options) error {
	if nw.Peers() != len(peers) {
		return fmt.Errorf("rollbacktest: %d peers on a network of %d", len(peers), nw.Peers())
	}
	step, quantum := opts.Step, opts.Quantum
	if step <= 0 {
		step = timing.DefaultInterval
	}
	if quantum <= 0 {
		quantum = time.Millisecond
	}
	next := make([]time.Duration, len(peers))
	for i, p := range peers {
		next[i] = p.Start
	}
	msg, buf := make([]byte, 0, 4096), make([]byte, 64<<10)
	for now := time.Duration(0); ; now += quantum {
		at := timing.Instant(now)
		done := true
		for i, p := range peers {
			for j := range peers {
				if j == i {
					continue
				}
				l := nw.Link(j, i)
				for n, ok := l.Receive(at, buf); ok; n, ok = l.Receive(at, buf) {
					if err := p.Session.Receive(buf[:n]); err != nil {
						return fmt.Errorf("rollbacktest: peer %d: %w", i, err)
					}
				}
			}
			if p.Session.Tick() >= ticks {
				continue
			}
			done = false
			if now < next[i] {
				continue
			}
			next[i] += step
			if p.Input != nil {
				p.Input(p.Session)
			}
			var err error
			if p.Update != nil {
				_, err = p.Update(at)
			} else {
				_, err = p.Session.Advance()
			}
			if err != nil {
				return fmt.Errorf("rollbacktest: peer %d: %w", i, err)
			}
			msg = p.Session.AppendMessage(msg[:0])
			for j := range peers {
				if j != i {
					nw.Link(i, j).Send(at, msg)
				}
			}
		}
		if done {
			return nil
		}
	}
}
