package netplay

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/metronome-go/metronome/rollback"
)

// hosts reports whether r listens for the others.
func hosts(r rollback.Role) bool { return r == rollback.Hosting || r == rollback.Dedicated }

// ConnectOptions say which match [Connect] reaches, and how.
type ConnectOptions struct {
	// Role is this machine's part: it hosts (rollback.Hosting or
	// rollback.Dedicated) or reaches a host (rollback.Joining or
	// rollback.Spectating).
	Role rollback.Role
	// Addr is where a host listens (":7777", "127.0.0.1:0"), or the
	// host a joiner or spectator reaches ("192.0.2.1:7777").
	Addr string
	// Token is the join token the host printed; a joiner's and a
	// spectator's.
	Token string
	// Options are the match's. Players (and Start) count the players: a
	// dedicated host's match holds one peer more, which Connect adds. A
	// spectator's role sets Spectate. Clock is what Patience is measured
	// on.
	Options Options
	// Identity is what every peer must share; a joiner that differs is
	// refused.
	Identity rollback.Identity
	// Patience is how long a host waits for the players the match starts
	// with, and a joiner for the match to start, on Options.Clock; zero
	// waits until ctx ends.
	Patience time.Duration
	// Notify, if not nil, is told each step on the way ([Notice]) for
	// the program to show, on the goroutine that called Connect.
	Notify func(Notice)
}

// NoticeKind says what a [Notice] reports.
type NoticeKind uint8

const (
	// Listening: the host listens; the notice says what a joiner passes.
	Listening NoticeKind = iota + 1
	// Started: the match is full and starts; the notice says this
	// machine's peer number.
	Started
)

// Notice is a step of [Connect] for its caller to show.
type Notice struct {
	Kind NoticeKind
	Role rollback.Role
	// Addr is the address the host listens on (Listening).
	Addr net.Addr
	// JoinAddr is the address a joiner on this machine passes: Addr,
	// with a loopback host when the host listens on every interface
	// (":7777"), since the token names no address (Listening).
	JoinAddr string
	// Token is the join token to give the joiners (Listening).
	Token string
	// Transport is the name of the network the match runs over.
	Transport string
	// Self is this machine's peer number (Started).
	Self int
}

// Connect reaches the match o describes and returns it once it starts:
// a host listens on o.Addr, notifies [Listening] and waits up to
// o.Patience for the players the match starts with (else a
// *[ShortError] that unwraps to context.DeadlineExceeded); a joiner or
// spectator joins the host at o.Addr with o.Token ([Join]). Either
// notifies [Started] with its peer number. A join the host refused is
// returned as the match's outcome, [rollback.Refused], with the host's
// reason (an *[rollback.OutcomeError]); a token for another transport
// wraps [ErrTransport]. ctx ends every wait early.
func Connect(ctx context.Context, o ConnectOptions) (*Match, error) {
	opts, notify := o.Options, o.Notify
	if notify == nil {
		notify = func(Notice) {}
	}
	switch o.Role {
	case rollback.Hosting, rollback.Joining:
	case rollback.Dedicated:
		players := opts.Players
		if players == 0 {
			players = DefaultPlayers
		}
		if players+1 > MaxPlayers {
			return nil, fmt.Errorf("netplay: a dedicated host serves up to %d players (a match holds %d peers, the host's included); Options.Players is %d",
				MaxPlayers-1, MaxPlayers, players)
		}
		opts.Players = players + 1
		if opts.Start > 0 {
			opts.Start++ // the players who joined, and the host
		}
	case rollback.Spectating:
		opts.Spectate = true
	default:
		return nil, fmt.Errorf("netplay: ConnectOptions.Role %d is out of range; allowed: rollback.Hosting, Dedicated, Joining or Spectating", o.Role)
	}
	var m *Match
	if hosts(o.Role) {
		lobby, err := Host(o.Addr, opts, o.Identity)
		if err != nil {
			return nil, err
		}
		opts = lobby.m.opts // with its defaults
		notify(Notice{Kind: Listening, Role: o.Role, Addr: lobby.Addr(), JoinAddr: joinAddr(o.Addr, lobby.Addr().String()),
			Token: lobby.Token(), Transport: opts.Transport})
		if m, err = lobby.wait(ctx, o.Patience); err != nil {
			lobby.Close()
			return nil, err
		}
	} else {
		var err error
		if m, err = join(ctx, o.Addr, o.Token, opts, o.Identity, o.Patience); err != nil {
			return nil, refusal(err)
		}
		opts = m.opts
	}
	notify(Notice{Kind: Started, Role: o.Role, Transport: opts.Transport, Self: m.Self()})
	return m, nil
}

// refusal is a join's error as the match's outcome when the host
// refused it ([rollback.Refused], with the host's reason), err itself
// otherwise.
func refusal(err error) error {
	if !errors.Is(err, ErrRefused) {
		return err
	}
	return rollback.Outcome{Kind: rollback.Refused, Reason: strings.TrimPrefix(err.Error(), ErrRefused.Error()+": ")}.Err()
}

// joinAddr is the address a joiner on this machine passes: the host's
// listening address bound, with a loopback host when it listens on every
// interface (addr ":7777"), since the token names no address.
func joinAddr(addr, bound string) string {
	if strings.HasPrefix(addr, ":") || strings.HasPrefix(bound, "[::]:") || strings.HasPrefix(bound, "0.0.0.0:") {
		if i := strings.LastIndex(bound, ":"); i >= 0 {
			return "127.0.0.1" + bound[i:]
		}
	}
	return bound
}
