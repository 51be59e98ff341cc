// Command lobbyload measures the lobby on the loopback, in one process:
// simulated clients enter quick match in pairs across three lobby
// instances on a three-server NATS cluster, against one instance on the
// embedded NATS server in the same run, and it prints one line with both
// and their ratio (time from queue to paired, p50 and p99; memory per
// client; clients lost).
//
//	go run ./cmd/lobbyload --clients 10000
//	go run ./cmd/lobbyload --clients 2000 --kill   # one of the three instances dies half way
//
// Everything stops by itself within --timeout per configuration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/metronome-go/metronome/lobby/lobbyload"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lobbyload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	clients := fs.Int("clients", 10000, "simulated clients per configuration (even)")
	kill := fs.Bool("kill", false, "kill one of the three instances when half the clients have entered")
	parallel := fs.Int("parallel", 256, "clients between dialling and paired at once")
	timeout := fs.Duration("timeout", 10*time.Minute, "bound of each configuration's run")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // --help asked for the usage, which is printed
		}
		return 2
	}
	dir, err := os.MkdirTemp("", "lobbyload")
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	one, err := lobbyload.Run(context.Background(), lobbyload.Options{Clients: *clients, Instances: 1, NATSNodes: 1,
		Parallel: *parallel, Timeout: *timeout, Dir: dir + "/one"})
	if err != nil {
		fmt.Fprintln(stderr, "one instance:", err)
		return 1
	}
	o := lobbyload.Options{Clients: *clients, Instances: 3, NATSNodes: 3, Parallel: *parallel, Timeout: *timeout, Dir: dir + "/three"}
	if *kill {
		o.KillAt = *clients / 2
	}
	three, err := lobbyload.Run(context.Background(), o)
	if err != nil {
		fmt.Fprintln(stderr, "three instances:", err)
		return 1
	}
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }
	fmt.Fprintf(stdout, "lobbyload: 3 instances on 3 NATS servers [%v] vs 1 on embedded NATS [%v]: p50 x%.2f p99 x%.2f mem/client x%.2f\n",
		three, one, ratio(three.P50, one.P50), ratio(three.P99, one.P99), three.BytesPerClient/max(one.BytesPerClient, 1))
	if three.Paired != three.Clients || one.Paired != one.Clients || three.Lost+one.Lost > 0 {
		return 1
	}
	return 0
}
