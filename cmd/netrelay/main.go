// Command netrelay relays UDP datagrams between one client and one server
// through rollback/netsim's model of a bad network: delay, jitter and loss
// in each direction, seeded. scripts/netem.sh uses it where the kernel has
// no netem queueing discipline (tc qdisc ... netem), so that a match
// between two processes can still be played under the conditions of the
// in-process tests.
//
//	netrelay -listen 10.200.7.1:7778 -to 10.200.7.1:7777 -delay 75ms -jitter 20ms -loss 0.05 -seed 1
//
// The first address that sends to -listen is the client; datagrams from
// any other address are dropped and counted. Everything the client sends
// goes to -to, everything -to answers goes back to the client, each
// through its own simulated link. It runs until SIGINT or SIGTERM, then
// prints one line of counts on stderr.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/timing"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // the usage was printed: asking for help is not an error
		}
		fmt.Fprintln(os.Stderr, "netrelay:", err)
		os.Exit(1)
	}
}

// datagram is one packet read from a socket: toward the server (up) or
// back to the client.
type datagram struct {
	up   bool
	from netip.AddrPort
	buf  []byte
}

func run(args []string) error {
	fs := flag.NewFlagSet("netrelay", flag.ContinueOnError)
	listen := fs.String("listen", "", "the `address` the client sends to")
	to := fs.String("to", "", "the server's `address`")
	var o netsim.Options
	fs.DurationVar(&o.Latency, "delay", 0, "one-way `delay` of every datagram, each direction")
	fs.DurationVar(&o.Jitter, "jitter", 0, "uniform jitter of the delay, ± this `interval`")
	fs.Float64Var(&o.Loss, "loss", 0, "`probability` (0 to 1) that a datagram is lost, each direction")
	fs.Uint64Var(&o.Seed, "seed", 1, "`seed` of the conditions' random source")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *listen == "" || *to == "" {
		return errors.New("-listen and -to are both needed")
	}
	up, err := netsim.NewLink(o)
	if err != nil {
		return err
	}
	o.Seed++ // the other direction draws its own conditions
	down, err := netsim.NewLink(o)
	if err != nil {
		return err
	}
	la, err := net.ResolveUDPAddr("udp", *listen)
	if err != nil {
		return fmt.Errorf("-listen: %w", err)
	}
	ta, err := net.ResolveUDPAddr("udp", *to)
	if err != nil {
		return fmt.Errorf("-to: %w", err)
	}
	front, err := net.ListenUDP("udp", la)
	if err != nil {
		return err
	}
	defer front.Close()
	back, err := net.DialUDP("udp", nil, ta)
	if err != nil {
		return err
	}
	defer back.Close()

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(stop)
	quit := make(chan struct{})
	go func() { <-stop; close(quit) }()
	st := relay(front, back, up, down, quit)
	fmt.Fprintf(os.Stderr, "netrelay: to the server %d sent, %d lost, %d delivered; back %d sent, %d lost, %d delivered; %d from other addresses dropped\n",
		st.up.Sent, st.up.Lost, st.up.Delivered, st.down.Sent, st.down.Lost, st.down.Delivered, st.strangers)
	return nil
}

// relayStats are a relay's counts: each link's, and the datagrams from
// addresses other than the client's.
type relayStats struct {
	up, down  netsim.Stats
	strangers uint64
}

// relay forwards what the first address to send to front sends to back,
// through up, and what back receives to that address, through down, until
// quit closes; then it closes both sockets, waits for its readers and
// returns the counts. The links are relay's until it returns.
func relay(front, back *net.UDPConn, up, down *netsim.Link, quit <-chan struct{}) relayStats {
	// Two readers, owned by relay: they stop when the sockets close, and
	// relay waits for them before it returns.
	in := make(chan datagram, 256)
	done := make(chan struct{})
	var wg sync.WaitGroup
	read := func(c *net.UDPConn, upward bool) {
		defer wg.Done()
		buf := make([]byte, 64<<10) // the largest UDP payload
		for {
			n, from, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			// The link holds the datagram until it is due: a copy of
			// its own, of its size.
			select {
			case in <- datagram{up: upward, from: from, buf: append([]byte(nil), buf[:n]...)}:
			case <-done:
				return
			}
		}
	}
	wg.Add(2)
	go read(front, true)
	go read(back, false)
	defer func() {
		close(done)
		front.Close()
		back.Close()
		wg.Wait()
	}()

	clock := timing.SystemClock{}
	var client netip.AddrPort // none until the first datagram
	var strangers uint64
	buf := make([]byte, 64<<10)
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	for {
		now := clock.Now()
		for n, ok := up.Receive(now, buf); ok; n, ok = up.Receive(now, buf) {
			back.Write(buf[:n]) // a failed send is a lost datagram
		}
		for n, ok := down.Receive(now, buf); ok && client.IsValid(); n, ok = down.Receive(now, buf) {
			front.WriteToUDPAddrPort(buf[:n], client)
		}
		next := time.Hour
		for _, l := range []*netsim.Link{up, down} {
			if at, ok := l.NextArrival(); ok {
				next = min(next, max(time.Duration(at-now), 0))
			}
		}
		wake.Reset(next)
		select {
		case d := <-in:
			switch {
			case !d.up:
				down.Send(clock.Now(), d.buf)
			case !client.IsValid() || client == d.from:
				client = d.from
				up.Send(clock.Now(), d.buf)
			default:
				strangers++
			}
		case <-wake.C:
		case <-quit:
			return relayStats{up: up.Stats(), down: down.Stats(), strangers: strangers}
		}
	}
}
