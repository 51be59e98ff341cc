package framework

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// connectMatch turns --host and --join into this machine's side of a
// match over package rollback/netplay; nil without them. --host listens on
// f.Host, prints the address and the join command with its token to
// stdout and waits (up to net.join_timeout) for every player; --join
// joins the match at f.Join with f.Token. Both sides must play the same
// game, version and match-relevant configuration (see matchIdentity), or
// the join is refused with the reason on both sides.
//
// With --dedicated the host plays no seat: the match has one peer more
// than players, the host (peer 0), which relays and checks it, and every
// player joins (player p plays at peer p+1). A joiner knows a dedicated
// host by that peer count.
func connectMatch(f *Flags, g Game, cfg config.Config, stdout io.Writer) (*Match, error) {
	if f.Host == "" && f.Join == "" && f.Spectate == "" {
		return nil, nil
	}
	if g.Net == nil {
		return nil, errors.New("framework: --host, --join and --spectate need a game that declares its players (Game.Net)")
	}
	n := cfg.Net
	opts := netplay.Options{Players: n.Players, Transport: n.Transport.String(), Timeout: n.Timeout, Start: n.StartWith}
	if f.Dedicated {
		opts.Players++
		if opts.Start > 0 {
			opts.Start++ // the players who joined, and the host
		}
		if opts.Players > netplay.MaxPlayers {
			return nil, fmt.Errorf("framework: --dedicated: a dedicated host serves up to %d players (a match holds %d peers, the host's included); net.players is %d",
				netplay.MaxPlayers-1, netplay.MaxPlayers, n.Players)
		}
	}
	id := matchIdentity(g, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), n.JoinTimeout)
	defer cancel()
	var m *netplay.Match
	if f.Host != "" {
		lobby, err := netplay.Host(f.Host, opts, id)
		if err != nil {
			return nil, fmt.Errorf("framework: --host %s: %w", f.Host, err)
		}
		what := fmt.Sprintf("a %d-player match", n.Players)
		if n.StartWith > 0 && n.StartWith < n.Players {
			what += fmt.Sprintf(" (it starts with %d; the others join during it)", n.StartWith)
		}
		if f.Dedicated {
			what = fmt.Sprintf("a %d-player match as a dedicated host (no seat here: every player joins)", n.Players)
		}
		fmt.Fprintf(stdout, "hosting %s on %s over %s; join with:\n  --join %s --token %s\n",
			what, lobby.Addr(), opts.Transport, joinAddr(f.Host, lobby.Addr().String()), lobby.Token())
		if m, err = lobby.Wait(ctx); err != nil {
			lobby.Close()
			return nil, fmt.Errorf("framework: --host %s: waiting %v for %d players: %w", f.Host, n.JoinTimeout, n.Players, err)
		}
	} else if f.Spectate != "" {
		opts.Spectate = true
		var err error
		if m, err = netplay.Join(ctx, f.Spectate, f.Token, opts, id); err != nil {
			return nil, fmt.Errorf("framework: --spectate %s: %w", f.Spectate, err)
		}
	} else {
		var err error
		if m, err = netplay.Join(ctx, f.Join, f.Token, opts, id); err != nil {
			if errors.Is(err, netplay.ErrTransport) {
				return nil, fmt.Errorf("framework: --join %s: net.transport is %q, the host's is another: %w", f.Join, opts.Transport, err)
			}
			return nil, fmt.Errorf("framework: --join %s: %w", f.Join, err)
		}
	}
	if f.Spectate != "" {
		fmt.Fprintf(stdout, "watching: %d players, this machine is spectator peer %d\n", n.Players, m.Self())
	} else {
		fmt.Fprintf(stdout, "match started: %d players, this machine is peer %d\n", n.Players, m.Self())
	}
	match := &Match{Transport: m, Self: m.Self(), Peers: make([]int, n.Players), Bot: f.Bot, Spectator: f.Spectate != "", Rejoining: m.Rejoining()}
	first := 0 // the host is player 0
	if m.Players() == n.Players+1 {
		first = 1 // a dedicated host, peer 0, plays no seat
		if m.Self() != 0 && !match.Spectator {
			match.Seatless = []int{0}
		}
	}
	for p := range match.Peers {
		match.Peers[p] = p + first
		if f.Host != "" && !m.Joined(p+first) {
			match.Late = append(match.Late, p+first)
		}
	}
	return match, nil
}

// joinAddr is the address a joiner on this machine passes: the host's
// listening address, with a loopback host when it listens on every
// interface (":7777"), since the token names no address.
func joinAddr(flag, bound string) string {
	if strings.HasPrefix(flag, ":") || strings.HasPrefix(bound, "[::]:") || strings.HasPrefix(bound, "0.0.0.0:") {
		if i := strings.LastIndex(bound, ":"); i >= 0 {
			return "127.0.0.1" + bound[i:]
		}
	}
	return bound
}

// matchIdentity names what every peer of a match must share: the game
// (its title, or the program's name), its build (the main module's
// version and VCS revision, when the binary records them) and a hash of
// the configuration that decides the simulation (configHash). Window,
// sound, input bindings, pacing and each peer's patience may differ
// between players.
func matchIdentity(g Game, cfg config.Config) netplay.Identity {
	id := netplay.Identity{Game: g.Title, Version: "devel"}
	if id.Game == "" {
		id.Game = programName()
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		id.Version = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				id.Version += " " + s.Value
			}
		}
	}
	if len(id.Game) > 64 {
		id.Game = id.Game[:64]
	}
	if len(id.Version) > 64 {
		id.Version = id.Version[:64]
	}
	id.Config = configHash(g, cfg)
	id.Settings = matchSettings(cfg)
	return id
}

// matchSettings lists the values configHash hashes, key by key as
// --print-config writes them, so that a refused joiner is told which
// differ: timing's mode, step and rate, the [net] table's players,
// delay, window, hash interval and transport, and every [game] key.
func matchSettings(cfg config.Config) []netplay.Setting {
	var out []netplay.Setting
	table := ""
	for line := range strings.Lines(string(cfg.EffectiveTOML())) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[]")
			continue
		}
		name, rest, ok := strings.Cut(line, " = ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		key := table + "." + strings.TrimSpace(name)
		switch key {
		case "timing.mode", "timing.step", "timing.rate", "net.players", "net.delay", "net.window", "net.hash_every", "net.transport":
		default:
			if table != "game" && !strings.HasPrefix(table, "game.") {
				continue
			}
		}
		out = append(out, netplay.Setting{Key: key, Value: tomlValue(rest)})
	}
	return out
}

// tomlValue is the value at the start of rest, without the comment
// --print-config writes after it (a # outside quotes).
func tomlValue(rest string) string {
	quoted := false
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == '#' && !quoted:
			return strings.TrimSpace(rest[:i])
		}
	}
	return strings.TrimSpace(rest)
}

// configHash hashes, in a fixed order, the owners' values that decide a
// match's simulation: the timing's mode, step and rate; the [net] table's
// players, input delay, prediction window, hash interval and transport
// (not its timeouts, which are each peer's own); and the game's decoded
// settings struct, the [game] table, field by field in declaration order
// (fmt's %#v). Every peer's game is the same build (the identity's
// version), so the same struct type.
func configHash(g Game, cfg config.Config) uint64 {
	h := fnv.New64a()
	t, n := cfg.Timing, cfg.Net
	fmt.Fprintf(h, "timing %v %d %d/%d\n", t.Mode, t.FixedStep, t.Rate.Num, t.Rate.Den)
	fmt.Fprintf(h, "net %d %d %d %d %v\n", n.Players, n.Delay, n.Window, n.HashEvery, n.Transport)
	if g.Settings != nil {
		fmt.Fprintf(h, "game %#v\n", g.Settings)
	}
	return h.Sum64()
}

// errPeerLeft ends a match whose peer closed its side: the session stops
// as at its end, and a headless run still prints its confirmed line.
var errPeerLeft = errors.New("framework: networked match: a peer left")

// netEvents reports the match's connection changes: a peer that stops
// answering is shown (the session holds at its window until the peer's
// input comes back, owing the time), one that comes back too, and one
// that left for good ends the match.
func (r *netRun) netEvents() error {
	m, ok := r.tr.(*netplay.Match)
	if !ok {
		return nil
	}
	for {
		ev, ok := m.Event()
		if !ok {
			return nil
		}
		if err := r.event(ev); err != nil {
			return err
		}
	}
}

// event reports one connection change on r.log, the writer the session's
// messages go to; a peer that left is errPeerLeft.
func (r *netRun) event(ev netplay.Event) error {
	if ev.Spectator {
		r.spectatorEvent(ev)
		fmt.Fprintf(r.log, "%s: spectator (peer %d) %s\n", programName(), ev.Peer, ev.Kind)
		return nil
	}
	if ev.Kind == netplay.Left {
		return fmt.Errorf("%w: peer %d", errPeerLeft, ev.Peer)
	}
	if ev.Peer < 0 || ev.Peer >= netplay.MaxPlayers {
		return nil
	}
	switch ev.Kind {
	case netplay.Disconnected:
		if r.sess != nil {
			r.sess.Unfill(ev.Peer) // a peer gone is waited for, in case it rejoins
		}
		r.away[ev.Peer] = r.clock.Now()
		r.awaySet |= 1 << ev.Peer
		fmt.Fprintf(r.log, "%s: peer %d disconnected: the match waits up to %v (net.join_timeout) for it to come back\n", programName(), ev.Peer, r.patience)
		return nil
	case netplay.Reconnected:
		r.awaySet &^= 1 << ev.Peer
		if r.sess != nil {
			// Its link came back, or a new run of it took its slot back:
			// either way, send it every input it does not acknowledge anew.
			r.sess.Rejoined(ev.Peer)
		}
	}
	fmt.Fprintf(r.log, "%s: peer %d %s\n", programName(), ev.Peer, ev.Kind)
	return nil
}

// waited ends the match when a player's peer has been disconnected for
// longer than net.join_timeout.
func (r *netRun) waited() error {
	if r.awaySet == 0 {
		return nil
	}
	now := r.clock.Now()
	for peer := range netplay.MaxPlayers {
		if r.awaySet&(1<<peer) != 0 && time.Duration(now-r.away[peer]) > r.patience {
			return fmt.Errorf("%w: peer %d did not come back within %v (net.join_timeout)", errPeerLeft, peer, r.patience)
		}
	}
	return nil
}

// transportRTT is the round trip a transport measures, 0 for one that
// measures none: over netplay the longest to any peer (a joiner measures
// only its round trip to the host).
func transportRTT(tr any) time.Duration {
	m, ok := tr.(*netplay.Match)
	if !ok {
		return 0
	}
	st := m.Stats()
	var rtt time.Duration
	for p := range m.Players() {
		if p != m.Self() && st.Peers[p].RTT > rtt {
			rtt = st.Peers[p].RTT
		}
	}
	return rtt
}

// finalHash is what a headless match's last line gives: with --ticks N,
// the last hashed tick below N, which every peer confirmed before it
// stopped (see ranAll); without, the last confirmed tick hashed.
func (s *Session) finalHash() (tick int64, hash uint64, ok bool) {
	if s.spec != nil {
		return s.spec.fol.LastHash() // stopped on specTarget with --ticks
	}
	if every := int64(s.cfg.Net.HashEvery); s.stopAfter > 0 && every > 0 && s.net != nil {
		tick = (int64(s.stopAfter) - 1) / every * every
		if hash, ok = s.ConfirmedHashAt(tick); ok {
			return tick, hash, true
		}
	}
	return s.ConfirmedHash()
}
