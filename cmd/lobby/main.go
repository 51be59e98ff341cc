// Command lobby runs the lobby where players of a Metronome game meet by
// room code or quick match (package lobby/server).
//
//	go run ./cmd/lobby --addr 0.0.0.0:7000                       # one machine: NATS embedded
//	go run ./cmd/lobby --addr :7000 --nats nats://n1:4222,nats://n2:4222 --replicas 3
//	go run ./cmd/lobby --addr :443 --cert lobby.pem --key lobby.key \
//		--turn turn:turn.example.org:3478 --turn-secret-file /etc/lobby/turn-secret
//
// Games reach it as ws://HOST:PORT, or wss:// with --cert and --key.
// Without --nats it starts a NATS server with JetStream inside the process
// (listening nowhere, or on --nats-listen for other instances to share);
// with --nats every instance given the same cluster serves one player base.
// The code path is the same either way.
//
// The TURN secret is coturn's static-auth-secret (use-auth-secret), read
// from --turn-secret-file or the METRONOME_LOBBY_TURN_SECRET environment
// variable, never from the command line where ps would show it. The lobby
// signs each client's credentials with it and never prints or sends it.
//
// It runs until SIGINT or SIGTERM; clients then move to another instance.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/metronome-go/metronome/lobby/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run serves until ctx ends. It returns 0 after a clean stop, 1 when the
// lobby could not start or failed, 2 for bad flags.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lobby", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:7000", "`host:port` to take WebSocket connections on")
	natsURL := fs.String("nats", "", "NATS `urls` (comma-separated) of the cluster that holds the lobby's state; empty: embed a NATS server")
	natsListen := fs.String("nats-listen", "", "with the embedded NATS server: also take NATS clients on this `host:port`")
	natsDir := fs.String("nats-dir", "", "with the embedded NATS server: its JetStream `directory` (default: a temporary one)")
	instance := fs.String("instance", "", "this instance's `name` (default: random)")
	replicas := fs.Int("replicas", 1, "NATS servers that keep the lobby's bucket: 1, or 3 on a cluster of three or more")
	cert := fs.String("cert", "", "TLS certificate `file` (PEM): serve wss://")
	key := fs.String("key", "", "TLS key `file` (PEM) for --cert")
	var turn listFlag
	fs.Var(&turn, "turn", "a TURN server `url` handed to clients (turn:host:3478); repeat for more")
	turnFile := fs.String("turn-secret-file", "", "`file` holding coturn's static-auth-secret (or set METRONOME_LOBBY_TURN_SECRET)")
	var o server.Options
	fs.DurationVar(&o.TURNTTL, "turn-ttl", 2*time.Hour, "how long TURN credentials stay valid")
	fs.DurationVar(&o.RoomTTL, "room-ttl", time.Hour, "how long a room lives after it was made or reclaimed")
	fs.DurationVar(&o.PingEvery, "ping", 20*time.Second, "ping interval; a client that misses one is dropped")
	fs.IntVar(&o.MaxClients, "max-clients", 20000, "clients this instance holds at once")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lobby: unexpected arguments %q: every setting is a flag\n", fs.Args())
		return 2
	}
	if (*cert == "") != (*key == "") {
		fmt.Fprintln(stderr, "lobby: --cert and --key go together")
		return 2
	}
	if *natsURL != "" && (*natsListen != "" || *natsDir != "") {
		fmt.Fprintln(stderr, "lobby: --nats-listen and --nats-dir are for the embedded NATS server, not with --nats")
		return 2
	}
	secret := []byte(strings.TrimSpace(getenv("METRONOME_LOBBY_TURN_SECRET")))
	if *turnFile != "" {
		b, err := os.ReadFile(*turnFile)
		if err != nil {
			fmt.Fprintf(stderr, "lobby: --turn-secret-file: %v\n", err)
			return 2
		}
		secret = []byte(strings.TrimSpace(string(b)))
	}
	if len(secret) == 0 && len(turn) > 0 {
		fmt.Fprintln(stderr, "lobby: --turn needs the TURN secret: --turn-secret-file or METRONOME_LOBBY_TURN_SECRET")
		return 2
	}
	o.Instance, o.Replicas, o.TURNSecret, o.TURNURLs = *instance, *replicas, secret, turn
	o.Log = slog.New(slog.NewTextHandler(stderr, nil))

	var nc *nats.Conn
	where := *natsURL
	if *natsURL == "" {
		ns, err := server.StartNATS(server.NATSOptions{Dir: *natsDir, ClientAddr: *natsListen})
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
		if nc, err = server.ConnectEmbedded(ns, "lobby"); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		where = "embedded"
		if *natsListen != "" {
			where += ", clients on " + ns.ClientURL()
		}
	} else {
		var err error
		if nc, err = server.Connect(*natsURL, "lobby"); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	defer nc.Close()
	o.NATS = nc
	if err := o.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	s, err := server.New(sctx, o)
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "lobby: --addr: %v\n", err)
		return 1
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	scheme := "ws"
	if *cert != "" {
		scheme = "wss"
	}
	fmt.Fprintf(stdout, "lobby: games connect to %s://%s (NATS: %s; TURN: %s)\n", scheme, ln.Addr(), where, turnNote(turn))
	served := make(chan error, 1)
	go func() {
		if *cert != "" {
			served <- hs.ServeTLS(ln, *cert, *key)
		} else {
			served <- hs.Serve(ln)
		}
	}()
	var failed error
	select {
	case <-ctx.Done():
	case failed = <-served:
	}
	// The WebSocket connections are hijacked, so Shutdown leaves them to
	// the lobby's own Close.
	sd, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hs.Shutdown(sd)
	s.Close()
	if failed != nil && !errors.Is(failed, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "lobby: serving: %v\n", failed)
		return 1
	}
	fmt.Fprintln(stdout, "lobby: stopped")
	return 0
}

func turnNote(urls []string) string {
	if len(urls) == 0 {
		return "none"
	}
	return strings.Join(urls, ", ")
}

type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}
