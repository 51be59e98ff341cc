package rollback_test

import (
	"fmt"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

// Two peers, one player each, play 300 ticks over a simulated 100 ms
// round trip. Each update: fill the local input, Advance, send the
// message; take whatever arrived.
func Example() {
	nw, _ := netsim.NewNetwork(2, netsim.Options{Latency: 50 * time.Millisecond, Seed: 1})
	players := []rollback.Player{{Peer: 0, Delay: rollback.DefaultDelay}, {Peer: 1, Delay: rollback.DefaultDelay}}
	var peers [2]*rollback.Session
	for i := range peers {
		opts := rollback.DefaultOptions()
		opts.Self, opts.Players, opts.Actions = i, players, 2
		opts.HashEvery = 1
		peers[i], _ = rollback.NewSession(newToy(opts.Window), opts)
	}
	msg, buf := []byte(nil), make([]byte, 64<<10)
	for n := range 300 {
		now := timing.Instant(time.Duration(n) * timing.DefaultInterval)
		for i, s := range peers {
			for k, ok := nw.Link(1-i, i).Receive(now, buf); ok; k, ok = nw.Link(1-i, i).Receive(now, buf) {
				s.Receive(buf[:k])
			}
			script(1, i, s.Tick()+rollback.DefaultDelay, s.Local(i))
			s.Advance()
			msg = s.AppendMessage(msg[:0])
			nw.Link(i, 1-i).Send(now, msg)
		}
	}
	st := peers[0].Stats()
	fmt.Printf("tick %d, rollbacks %d (at most %d deep), desyncs %d\n", st.Tick, st.Rollbacks, st.MaxDepth, st.Desyncs)
	// Output:
	// tick 300, rollbacks 73 (at most 1 deep), desyncs 0
}

// A player who must not show its address relays through a coturn relay
// that shares a secret; asking to relay with no relay named is refused.
func ExampleICE_Validate() {
	ice := rollback.ICE{TURN: []string{"turn:relay.example.org:3478"}, TURNSecret: "shared with coturn", Policy: rollback.ICERelay}
	fmt.Println(ice.Validate())
	fmt.Println(rollback.ICE{Policy: rollback.ICERelay}.Validate())
	// Output:
	// <nil>
	// rollback: ICE.Policy relay needs a relay; allowed: "relay" with at least one relay in ICE.TURN, else "all"
}
