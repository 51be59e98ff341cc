package framework_test

import (
	"bufio"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/framework/frameworktest"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/recording"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
	"github.com/metronome-go/metronome/rollback/netplay/quicnet"
	"github.com/metronome-go/metronome/rollback/netsim"
	"github.com/metronome-go/metronome/rollback/rollbacktest"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// The [net] table is checked by rollback's Validate, each key named with
// what it allows, all at once.
func TestNetTableRefusesBadValues(t *testing.T) {
	_, err := config.Build(config.Layers{Sets: []string{"net.window=65", "net.delay=17", "net.players=1", "net.timeout=10ms"}})
	if err == nil {
		t.Fatal("bad [net] values accepted")
	}
	for _, want := range []string{"net.window", "0 to 64", "net.delay", "0 to 16", "net.players", "2 to 16", "net.timeout", "1s to 5m"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	_, err = config.Build(config.Layers{Sets: []string{`net.transport="TCP/IP"`}})
	if err == nil || !strings.Contains(err.Error(), "net.transport") || !strings.Contains(err.Error(), "quic") {
		t.Errorf("transport TCP/IP: got %v, want an error naming net.transport and how a transport is spelled", err)
	}
}

// A game links the transports its Net lists: a configuration that names
// another is refused with those the game links, before anything runs.
func TestATransportTheGameDoesNotLinkIsRefused(t *testing.T) {
	quic := config.Default()
	if err := quic.Set("net.transport=quic"); err != nil {
		t.Fatal(err)
	}
	_, err := framework.NewSession(netGame(), quic, "test.toml")
	for _, want := range []string{"test.toml", `net.transport quic is not a transport this program links; allowed: "udp" (Game.Net.Networks)`, "list quicnet.Network()"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewSession = %v, want an error saying %q", err, want)
		}
	}
	g := netGame()
	g.Net.Networks = []rollback.Network{netplay.UDPNetwork(), quicnet.Network()}
	if _, err := framework.NewSession(g, quic, "test.toml"); err != nil {
		t.Errorf("a game that lists QUIC: %v", err)
	}
	if _, err := framework.NewSession(netGame(), config.Default(), "test.toml"); err != nil {
		t.Errorf("a game that lists UDP, over UDP: %v", err)
	}
}

// A game that lists no network links none: it plays on one machine, and
// --host, --join and --spectate are refused, naming the network to list.
func TestAGameThatListsNoNetworkRefusesAMatch(t *testing.T) {
	local := func() framework.Game {
		g := netGame()
		g.Net.Networks = nil
		return g
	}
	if _, err := framework.NewSession(local(), config.Default(), "test.toml"); err != nil {
		t.Errorf("local play of a game that lists no network: %v", err)
	}
	for _, args := range [][]string{
		{"--host", "127.0.0.1:0"},
		{"--join", "127.0.0.1:7777", "--token", "x"},
		{"--spectate", "127.0.0.1:7777", "--token", "x"},
	} {
		var out, errs strings.Builder
		st := framework.MainStatus(local(), append([]string{"--set", "timing.mode=fixed", "--set", "audio.enabled=false"}, args...), &out, &errs)
		for _, want := range []string{args[0], "Game.Net.Networks", "netplay.UDPNetwork()"} {
			if st == 0 || !strings.Contains(errs.String(), want) {
				t.Errorf("%q: status %d, stderr %q; want a failure saying %q", args, st, errs.String(), want)
			}
		}
	}
}

func netGame() framework.Game {
	net := &framework.Net{Players: 2, Networks: []rollback.Network{netplay.UDPNetwork()}}
	return framework.Game{Net: net, Setup: func(s *framework.Setup) error {
		for _, name := range []string{"a", "b"} {
			a, err := s.Actions.Register(name, input.KeySpace)
			if err != nil {
				return err
			}
			net.Seats = append(net.Seats, []input.Action{a})
		}
		return nil
	}}
}

// withNetworks is netGame listing networks: the driver that plays its
// matches comes from one of them.
func withNetworks(networks ...rollback.Network) framework.Game {
	g := netGame()
	g.Net.Networks = networks
	return g
}

// driverless is a network that moves datagrams but carries no
// netplay.Driver: embedding the interface promotes its three methods
// only.
type driverless struct{ netplay.Network }

func match(t *testing.T) *framework.Match {
	nw, err := netsim.NewNetwork(2, netsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &framework.Match{Transport: rollbacktest.NewTransports(nw, timing.NewManualClock(0))[0], Self: 0, Peers: []int{0, 1}}
}

// A match is refused for what it cannot play, with the reason.
func TestUseMatchRefuses(t *testing.T) {
	variable := config.Default()
	fixed := config.Default()
	if err := fixed.Set("timing.mode=fixed"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    framework.Game
		cfg  config.Config
		m    func() *framework.Match
		want string
	}{
		{"no Net", framework.Game{}, fixed, func() *framework.Match { return match(t) }, "Game.Net"},
		{"variable timing", netGame(), variable, func() *framework.Match { return match(t) }, `timing.mode = "fixed"`},
		{"peers", netGame(), fixed, func() *framework.Match { m := match(t); m.Peers = []int{0}; return m }, "one per player"},
		{"no transport", netGame(), fixed, func() *framework.Match { m := match(t); m.Transport = nil; return m }, "Transport is nil"},
		{"no network", withNetworks(), fixed, func() *framework.Match { return match(t) }, "Game.Net.Networks is empty); allowed: one network or more, such as netplay.UDPNetwork()"},
		{"no driver", withNetworks(driverless{netplay.UDPNetwork()}), fixed, func() *framework.Match { return match(t) }, "carries a match driver (netplay.Driver)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := framework.NewSession(c.g, c.cfg, "test")
			if err != nil {
				t.Fatal(err)
			}
			err = s.UseMatch(c.m())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("UseMatch = %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// The network flags go together as they must, and until the transports
// are wired --host says so instead of starting a local game.
func TestNetFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--host", ":7777", "--join", "127.0.0.1:7777", "--token", "x"}, "--host and --join"},
		{[]string{"--join", "127.0.0.1:7777"}, "--join needs --token"},
		{[]string{"--token", "x"}, "--token goes with --join"},
		{[]string{"--host", ":7777", "--synctest", "2"}, "not with --replay or --synctest"},
		{[]string{"--dedicated"}, "--dedicated goes with --host"},
		{[]string{"--host", ":7777", "--dedicated", "--bot", "1"}, "no player for the bot"},
		{[]string{"--join", "127.0.0.1:7777", "--token", "x", "--no-window"}, "--no-window plays a match whose players here are bots"},
		{[]string{"--no-window", "--bot", "1"}, "--no-window plays a match whose players here are bots"},
		{[]string{"--spectate", "127.0.0.1:7777"}, "--spectate needs --token"},
		{[]string{"--spectate", "127.0.0.1:7777", "--token", "x", "--join", "127.0.0.1:7777"}, "a session watches a match or plays in one"},
		{[]string{"--spectate", "127.0.0.1:7777", "--token", "x", "--bot", "1"}, "a spectator plays no player"},
	} {
		var out, errs strings.Builder
		if st := framework.MainStatus(netGame(), c.args, &out, &errs); st != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%q: status %d, stderr %q; want 2 and %q", c.args, st, errs.String(), c.want)
		}
	}
	// A bot plays a seat in local play too: --bot alone is no usage error.
	var f framework.Flags
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f.Register(fs)
	if err := fs.Parse([]string{"--bot", "3"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Validate(); err != nil {
		t.Errorf("--bot alone: %v, want it accepted (a bot plays a seat in local play)", err)
	}
	var out, errs strings.Builder
	// A match holds four peers: a dedicated host, one of them, serves up
	// to three players.
	errs.Reset()
	args := []string{"--set", "timing.mode=fixed", "--set", "net.players=4", "--set", "audio.enabled=false", "--dedicated", "--host", "127.0.0.1:0"}
	if st := framework.MainStatus(netGame(), args, &out, &errs); st != 1 || !strings.Contains(errs.String(), "up to 3 players") {
		t.Errorf("--dedicated with 4 players: status %d, stderr %q; want 1 and a message that it serves up to 3", st, errs.String())
	}
}

// A peer whose match configuration differs is refused on both sides,
// naming the configuration, over the loopback; the host gives up after
// net.join_timeout.
func TestJoinWithAnotherConfigurationIsRefused(t *testing.T) {
	common := []string{"--headless", "--ticks", "60", "--set", "timing.mode=fixed", "--set", "audio.enabled=false", "--set", "net.join_timeout=2s"}
	hostOut, hostW := io.Pipe()
	hostDone := make(chan string, 1)
	go func() {
		var errs strings.Builder
		framework.MainStatus(netGame(), append(common, "--host", "127.0.0.1:0"), hostW, &errs)
		hostW.Close()
		hostDone <- errs.String()
	}()
	lines := bufio.NewScanner(hostOut)
	var join []string
	for lines.Scan() {
		if f := strings.Fields(lines.Text()); len(f) == 4 && f[0] == "--join" {
			join = []string{"--join", f[1], "--token", f[3]}
			break
		}
	}
	go io.Copy(io.Discard, hostOut)
	if join == nil {
		t.Fatalf("the host printed no join command; stderr %q", <-hostDone)
	}
	var out, errs strings.Builder
	st := framework.MainStatus(netGame(), append(append(common, "--set", "timing.rate=30"), join...), &out, &errs)
	if st != framework.StatusRefused || !strings.Contains(errs.String(), "refused") || !strings.Contains(errs.String(), "config") {
		t.Errorf("joiner: status %d, stderr %q; want %d (refused) and a refusal naming the configuration", st, errs.String(), framework.StatusRefused)
	}
	// Nobody it could play with joined: it says so, not "context
	// deadline exceeded".
	if herr := <-hostDone; !strings.Contains(herr, "within 2s (net.join_timeout), not enough players joined: 0 of the 1") || strings.Contains(herr, "deadline") {
		t.Errorf("host stderr %q: want it to say plainly that nobody joined within net.join_timeout", herr)
	}
}

func TestConfirmedLine(t *testing.T) {
	if got, want := framework.ConfirmedLine(1199, 0x0123456789abcdef), "confirmed tick 1199 hash 0123456789abcdef"; got != want {
		t.Errorf("ConfirmedLine = %q, want %q", got, want)
	}
}

// Game.Net's ranges are rollback's (rollback.Options.Validate), named as
// Game.Net's fields, all at once.
func TestNetRangesAreRollbacks(t *testing.T) {
	net := &framework.Net{Players: 17}
	g := framework.Game{Net: net, Setup: func(s *framework.Setup) error {
		a, err := s.Actions.Register("a", input.KeySpace)
		seat := make([]input.Action, 65)
		for i := range seat {
			seat[i] = a
		}
		net.Seats = [][]input.Action{seat}
		return err
	}}
	_, err := frameworktest.New(g, frameworktest.Options{Sets: []string{"timing.mode=fixed", "audio.enabled=false"}})
	for _, want := range []string{
		"framework: Game.Net.Players 17 is out of range; allowed: 1 to 16 players",
		"framework: Game.Net.Seats[0] (its actions) 65 is out of range; allowed: 1 to 64",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a game of 17 players with 65 actions: %v, want it to say %q", err, want)
		}
	}
}

// A game that lists no network links no QUIC: framework does not import
// it, and Breakout, which declares no networked play, links none of it
// natively or in the browser. In the browser it links no TLS either;
// natively the inspector (--inspect, an HTTP server) brings crypto/tls.
func TestAGameLinksOnlyTheNetworksItNames(t *testing.T) {
	if testing.Short() {
		t.Skip("lists packages with go list")
	}
	const module = "github.com/metronome-go/metronome"
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		for _, pkg := range []string{module + "/framework", module + "/examples/breakout"} {
			cmd := exec.Command("go", "list", "-deps", pkg)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list -deps %s %v: %v", pkg, env, err)
			}
			for p := range strings.FieldsSeq(string(out)) {
				tls := p == "crypto/tls" && env != nil
				if tls || strings.HasPrefix(p, "github.com/quic-go/") || p == module+"/rollback/netplay/quicnet" {
					t.Errorf("%s %v links %s", pkg, env, p)
				}
			}
		}
	}
}

// A browser game that lists no network links no networking at all:
// framework speaks to its match driver and lobby in rollback's words, so
// neither framework nor Breakout's page depends on package
// rollback/netplay, net, net/netip, log/slog or any crypto package (the
// join token's HMAC, the code identity's SHA-256). The one crypto
// package allowed is what another dependency needs for itself: zstd's
// random dictionary IDs (package tiled's decoder), subtracted here as
// long as it is linked.
func TestABrowserGameLinksNoNetworking(t *testing.T) {
	if testing.Short() {
		t.Skip("lists packages with go list")
	}
	const module = "github.com/metronome-go/metronome"
	deps := func(pkg string) map[string]bool {
		cmd := exec.Command("go", "list", "-deps", pkg)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s (js/wasm): %v", pkg, err)
		}
		set := map[string]bool{}
		for p := range strings.FieldsSeq(string(out)) {
			set[p] = true
		}
		return set
	}
	for _, pkg := range []string{module + "/framework", module + "/examples/breakout"} {
		got := deps(pkg)
		others := map[string]bool{}
		if got["github.com/klauspost/compress/zstd"] {
			others = deps("github.com/klauspost/compress/zstd")
		}
		for p := range got {
			networking := p == "net" || strings.HasPrefix(p, "net/") || p == "log/slog" ||
				p == module+"/rollback/netplay" || p == module+"/internal/srcid" ||
				(p == "crypto" || strings.HasPrefix(p, "crypto/")) && !others[p]
			if networking {
				t.Errorf("%s (js/wasm) depends on %s", pkg, p)
			}
		}
	}
}

// A match recording replays through the driver of a network the game
// lists: a game that lists none (and so links no rollback session) says
// what to list instead of replaying it.
func TestAMatchRecordingNeedsANetwork(t *testing.T) {
	g := withNetworks()
	cfg := config.Default()
	if err := cfg.Set("timing.mode=fixed"); err != nil {
		t.Fatal(err)
	}
	h := framework.RecordingHeader(g, cfg, runtime.Sequential)
	h.Net = &recording.Net{Players: 2, Actions: 1}
	path := filepath.Join(t.TempDir(), "match.rec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := recording.NewWriter(f, path, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = framework.Replay(g, path, framework.ReplayOptions{Headless: true})
	for _, want := range []string{path, "2-player networked match", "Game.Net.Networks is empty", "netplay.UDPNetwork()"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Replay = %v, want an error saying %q", err, want)
		}
	}
}
