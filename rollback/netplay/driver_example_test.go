package netplay_test

import (
	"fmt"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// A network of another package carries the Driver by embedding it, as
// UDP's and QUIC's do: a game that lists it alone can then play its
// matches. Package framework looks for the driver's methods on the
// networks a game lists, never for the Driver by name.
func ExampleDriver() {
	type relayed struct {
		netplay.Driver
		netplay.Network // what moves the datagrams: here UDP's
	}
	var nw netplay.Network = relayed{Network: netplay.UDPNetwork()}
	_, plays := nw.(interface {
		Play(app *ecs.App, o rollback.PlayOptions) (rollback.Play, error)
	})
	fmt.Println(nw.Name(), plays)
	// Output: udp true
}
