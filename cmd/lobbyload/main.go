// Command lobbyload measures the lobby on the loopback: simulated clients
// enter quick match in pairs against one lobby instance on the embedded
// NATS server, then across three instances on a three-server NATS
// cluster, then across three again with one instance killed when half the
// clients have entered. The lobby and NATS run in this process; the
// clients run in --workers child processes (this program again, with
// --worker), at most 5,000 each, so that no process holds both ends of
// every socket. It prints one line per run (time from queue to paired,
// p50 and p99; lobby and NATS memory per connected client; clients that
// never heard their peer, rooms split, refusals) and the ratios of three
// instances to one.
//
//	go run ./cmd/lobbyload                  # 10,000 clients per run
//	go run ./cmd/lobbyload --clients 2000 --kill=false
//
// Every run stops by itself within --timeout, and sooner when no client
// has moved for --stall; it exits 1 when a client was not paired, a signal
// was lost or a room split.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/metronome-go/metronome/lobby/lobbyload"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lobbyload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	clients := fs.Int("clients", 10000, "simulated clients per run (even, 2 or more)")
	kill := fs.Bool("kill", true, "also run three instances with one killed when half the clients have entered")
	parallel := fs.Int("parallel", 256, "clients between dialling and paired at once")
	timeout := fs.Duration("timeout", 10*time.Minute, "bound of each run")
	stall := fs.Duration("stall", 30*time.Second, "end a run in which no client moved for this long")
	workers := fs.Int("workers", -1, "child processes running the clients, 0 for none (default: one per 2,500 clients)")
	worker := fs.Bool("worker", false, "run as a child of another lobbyload: read the run on standard input, report on standard output")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // --help asked for the usage, which is printed
		}
		return 2
	}
	if *worker {
		if err := lobbyload.Child(context.Background(), os.Stdin, stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	if *clients < 2 || *clients%2 != 0 {
		fmt.Fprintf(stderr, "lobbyload: --clients %d: an even number, 2 or more, allowed\n", *clients)
		return 2
	}
	if *workers < 0 {
		*workers = (*clients + 2499) / 2500
	}
	// The lobby's end of each socket here, the clients' ends in the
	// workers (which inherit the limit), or both here without workers.
	files := uint64(*clients) + 1024
	if *workers == 0 {
		files += uint64(*clients)
	}
	if err := ensureFiles(files); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	command := func() *exec.Cmd { return exec.Command(self, "--worker") }
	dir, err := os.MkdirTemp("", "lobbyload")
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)

	runs := []struct {
		name string
		o    lobbyload.Options
	}{
		{"1 instance, embedded NATS", lobbyload.Options{Instances: 1, NATSNodes: 1}},
		{"3 instances, 3 NATS servers", lobbyload.Options{Instances: 3, NATSNodes: 3}},
	}
	if *kill {
		runs = append(runs, struct {
			name string
			o    lobbyload.Options
		}{"3 instances, 3 NATS servers, instance 0 killed", lobbyload.Options{Instances: 3, NATSNodes: 3, KillAt: *clients / 2}})
	}
	res := make([]lobbyload.Result, len(runs))
	status := 0
	for i, r := range runs {
		r.o.Clients, r.o.Parallel, r.o.Timeout, r.o.Stall, r.o.Dir = *clients, *parallel, *timeout, *stall, fmt.Sprintf("%s/%d", dir, i)
		r.o.Workers, r.o.Command = *workers, command
		res[i], err = lobbyload.Run(context.Background(), r.o)
		fmt.Fprintf(stdout, "lobbyload: %s: %v\n", r.name, res[i])
		if err != nil {
			fmt.Fprintln(stderr, err)
			status = 1
		}
		if x := res[i]; x.Paired != x.Clients || x.Lost+x.Split+x.Stray > 0 {
			status = 1
		}
	}
	one, three := res[0], res[1]
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }
	fmt.Fprintf(stdout, "lobbyload: 3 instances / 1: p50 x%.2f p99 x%.2f mem/client x%.2f wall x%.2f\n",
		ratio(three.P50, one.P50), ratio(three.P99, one.P99), three.BytesPerClient/max(one.BytesPerClient, 1), ratio(three.Elapsed, one.Elapsed))
	return status
}
