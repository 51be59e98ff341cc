package netplay_test

import (
	"net"
	"testing"

	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// The notices say what a player passes and which peer it is, in the
// words the duel's scripts read.
func TestNoticeText(t *testing.T) {
	addr := &net.UDPAddr{IP: net.IPv4zero, Port: 7777}
	for _, c := range []struct {
		nt             netplay.Notice
		players, start int
		want           string
	}{
		{netplay.Notice{Kind: netplay.Listening, Role: rollback.Hosting, Addr: addr, JoinAddr: "127.0.0.1:7777", Token: "T", Transport: "udp"}, 2, 0,
			"hosting a 2-player match on 0.0.0.0:7777 over udp; join with:\n  --join 127.0.0.1:7777 --token T\n"},
		{netplay.Notice{Kind: netplay.Listening, Role: rollback.Hosting, Addr: addr, JoinAddr: "127.0.0.1:7777", Token: "T", Transport: "udp"}, 4, 2,
			"hosting a 4-player match (it starts with 2; the others join during it) on 0.0.0.0:7777 over udp; join with:\n  --join 127.0.0.1:7777 --token T\n"},
		{netplay.Notice{Kind: netplay.Listening, Role: rollback.Dedicated, Addr: addr, JoinAddr: "127.0.0.1:7777", Token: "T", Transport: "quic"}, 2, 0,
			"hosting a 2-player match as a dedicated host (no seat here: every player joins) on 0.0.0.0:7777 over quic; join with:\n  --join 127.0.0.1:7777 --token T\n"},
		{netplay.Notice{Kind: netplay.Started, Role: rollback.Joining, Self: 1}, 2, 0, "match started: 2 players, this machine is peer 1\n"},
		{netplay.Notice{Kind: netplay.Started, Role: rollback.Spectating, Self: 3}, 2, 0, "watching: 2 players, this machine is spectator peer 3\n"},
	} {
		if got := c.nt.Text(c.players, c.start); got != c.want {
			t.Errorf("Text(%d, %d) of %+v = %q, want %q", c.players, c.start, c.nt, got, c.want)
		}
	}
}
