package webrtc

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/rollback"
	"github.com/pion/transport/v5"
)

// Defaults of the zero Config.
const (
	DefaultTimeout    = 10 * time.Second
	DefaultHandshakes = 8
)

// Config is how an end finds a path to the other: ICE servers, the relay
// policy and the handshake's bounds. A zero Config consists entirely of
// default values: no STUN or TURN server, which the loopback and LAN
// paths need none of.
type Config struct {
	// STUN lists STUN servers ("stun:stun.example.org:3478") through
	// which an end behind a NAT learns its public address.
	STUN []string
	// TURN lists relays for ends that no direct path joins.
	TURN []TURN
	// Relay sends everything through a TURN relay (ICE policy "relay"):
	// for tests, and for players who must not show their address to the
	// others. It needs at least one TURN server.
	Relay bool
	// Timeout bounds a whole handshake, from the WebSocket's opening to
	// the data channel's, 100ms to 2 minutes; zero is 10 seconds. A
	// joiner that has not finished by then is refused.
	Timeout time.Duration
	// Handshakes is how many joins a host takes at once, 1 to 64; zero is
	// 8. A connection past it is refused at once (HTTP 503).
	Handshakes int
	// Net is the network ICE runs on; nil is the system's. A test passes
	// a pion vnet to impair the link. With a Net set, a host listens for
	// signalling on loopback TCP (a vnet has no TCP), on its UDP port's
	// number.
	Net transport.Net
	// Log receives each refusal and each peer that goes; nil logs
	// nothing.
	Log *slog.Logger
}

// TURN is one relay and its credentials.
type TURN struct {
	// URL is the relay's address, "turn:relay.example.org:3478" (or
	// "turns:" for TLS).
	URL string
	// Username and Credential are the relay's login: see
	// [TURNCredentials] for coturn's time-limited ones.
	Username, Credential string
}

// Validate reports every invalid field at once, each as an *option.Error.
func (c Config) Validate() error {
	var errs []error
	bad := func(field string, v any, problem, allowed string) {
		errs = append(errs, &option.Error{Pkg: "webrtc", Field: "Config." + field, Value: v, Problem: problem, Allowed: allowed})
	}
	for i, s := range c.STUN {
		if !strings.HasPrefix(s, "stun:") && !strings.HasPrefix(s, "stuns:") {
			bad(fmt.Sprintf("STUN[%d]", i), s, "is not a STUN URL", `"stun:host:port" or "stuns:host:port"`)
		}
	}
	for i, t := range c.TURN {
		if !strings.HasPrefix(t.URL, "turn:") && !strings.HasPrefix(t.URL, "turns:") {
			bad(fmt.Sprintf("TURN[%d].URL", i), t.URL, "is not a TURN URL", `"turn:host:port" or "turns:host:port"`)
		}
		if t.Username == "" || t.Credential == "" {
			bad(fmt.Sprintf("TURN[%d]", i), t.URL, "has no username or credential", "both set (TURNCredentials makes coturn's)")
		}
	}
	if c.Relay && len(c.TURN) == 0 {
		bad("Relay", true, "is set without a TURN server", "at least one TURN server to relay through")
	}
	if c.Timeout != 0 && (c.Timeout < 100*time.Millisecond || c.Timeout > 2*time.Minute) {
		bad("Timeout", c.Timeout, "is out of range", "100ms to 2m (0 is 10s)")
	}
	if c.Handshakes < 0 || c.Handshakes > 64 {
		bad("Handshakes", c.Handshakes, "is out of range", "1 to 64 (0 is 8)")
	}
	return errors.Join(errs...)
}

func (c Config) withDefaults() Config {
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Handshakes == 0 {
		c.Handshakes = DefaultHandshakes
	}
	return c
}

// TURNCredentials makes time-limited credentials in the form coturn's
// REST API (use-auth-secret) accepts: the username is the expiry in Unix
// seconds, a colon and name; the password is the base64 HMAC-SHA1 of the
// username keyed by the secret the relay shares. Whoever holds them may
// relay until expiry, and no longer.
func TURNCredentials(secret, name string, expiry time.Time) (username, password string) {
	username = strconv.FormatInt(expiry.Unix(), 10) + ":" + name
	h := hmac.New(sha1.New, []byte(secret))
	h.Write([]byte(username))
	return username, base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// turnLifetime is how long credentials made from a [net] table's
// turn_secret last: a day, longer than any match, since a relay checks
// them again at every refresh of the allocation.
const turnLifetime = 24 * time.Hour

// WithICE returns c with a match's ICE settings added (the [net] table's
// keys, netplay.Options.ICE): its STUN servers, its TURN relays with
// their login and relaying only under ice.Policy "relay". A relay that
// shares a secret gets credentials made by [TURNCredentials], named
// "metronome" and lasting a day from now (wall time, which the relay
// compares with its own).
func (c Config) WithICE(ice rollback.ICE, now time.Time) Config {
	c.STUN = append(slices.Clip(c.STUN), ice.STUN...)
	user, pass := ice.TURNUsername, ice.TURNPassword
	if ice.TURNSecret != "" {
		user, pass = TURNCredentials(ice.TURNSecret, "metronome", now.Add(turnLifetime))
	}
	c.TURN = slices.Clip(c.TURN)
	for _, url := range ice.TURN {
		c.TURN = append(c.TURN, TURN{URL: url, Username: user, Credential: pass})
	}
	c.Relay = c.Relay || ice.Policy == rollback.ICERelay
	return c
}
