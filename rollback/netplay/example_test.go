package netplay_test

import (
	"context"
	"fmt"
	"time"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// A host and a joiner on loopback: the joiner passes the token the host
// printed, and each end sends the other a message.
func Example() {
	id := rollback.Identity{Game: "duel", Version: "1.0", Config: 7}
	h, err := netplay.Host("127.0.0.1:0", netplay.Options{Networks: []netplay.Network{netplay.UDPNetwork()}, Players: 2}, id)
	if err != nil {
		panic(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	joiner, err := netplay.Join(ctx, h.Addr().String(), h.Token(), netplay.Options{Networks: []netplay.Network{netplay.UDPNetwork()}}, id)
	if err != nil {
		panic(err)
	}
	defer joiner.Close()
	host, err := h.Wait(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Printf("joined as peer %d of %d\n", joiner.Self(), joiner.Players())
	host.Send(1, []byte("hello from the host"))
	buf := make([]byte, 1200)
	frames := time.NewTicker(time.Second / 60) // a game's updates
	defer frames.Stop()
	for ctx.Err() == nil {
		if n, from, ok := joiner.Receive(buf); ok {
			fmt.Printf("peer %d: %s\n", from, buf[:n])
			break
		}
		<-frames.C
	}
	// Output:
	// joined as peer 1 of 2
	// peer 0: hello from the host
}
