package rollback

import (
	"errors"
	"fmt"
	"strings"

	"github.com/metronome-go/metronome/option"
)

// ICE is how the ends of a match over a transport that finds its paths
// with ICE (WebRTC) reach each other: the [net] table's stun, turn,
// turn_secret, turn_username, turn_password and ice_policy keys. It is
// each machine's own, not part of what the peers must share: a player
// behind a strict NAT may need a relay that the host does not. The zero
// ICE uses no server, which the loopback and LAN paths need none of. A
// transport without ICE (UDP, QUIC) ignores it.
type ICE struct {
	// STUN lists STUN servers ("stun:stun.example.org:3478"), through
	// which an end behind a NAT learns its public address.
	STUN []string `toml:"stun"`
	// TURN lists relays ("turn:relay.example.org:3478", "turns:" for
	// TLS) for ends that no direct path joins, all sharing one login:
	// TURNSecret, or TURNUsername and TURNPassword.
	TURN []string `toml:"turn"`
	// TURNSecret is the secret a coturn relay shares with its users'
	// servers (use-auth-secret, static-auth-secret), which a printed
	// configuration and a recording show only as set: the transport makes
	// time-limited credentials from it in coturn's REST form (username
	// "expiry:name", password the base64 HMAC-SHA1 of the username keyed
	// by the secret).
	TURNSecret string `toml:"turn_secret" secret:"true"`
	// TURNUsername and TURNPassword are a fixed login, or REST
	// credentials another service made, instead of TURNSecret; the
	// password is shown only as set, as the secret is.
	TURNUsername string `toml:"turn_username"`
	TURNPassword string `toml:"turn_password" secret:"true"`
	// Policy is which paths ICE may take: every path, or relays only.
	Policy ICEPolicy `toml:"ice_policy"`
}

// ICEPolicy is which paths ICE may take.
type ICEPolicy uint8

const (
	// ICEAll takes the best path ICE finds: direct, through a NAT, or a
	// relay.
	ICEAll ICEPolicy = iota
	// ICERelay sends everything through a TURN relay: for tests, and for
	// players who must not show their address to the others.
	ICERelay
)

// maxLogin bounds a TURN secret, username and password.
const maxLogin = 256

var icePolicies = [...]string{ICEAll: "all", ICERelay: "relay"}

// String returns "all" or "relay".
func (p ICEPolicy) String() string {
	if int(p) < len(icePolicies) {
		return icePolicies[p]
	}
	return fmt.Sprintf("ICEPolicy(%d)", uint8(p))
}

// MarshalText implements encoding.TextMarshaler.
func (p ICEPolicy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads "all" or "relay".
func (p *ICEPolicy) UnmarshalText(b []byte) error {
	for i, name := range icePolicies {
		if string(b) == name {
			*p = ICEPolicy(i)
			return nil
		}
	}
	return fmt.Errorf("rollback: ICE policy %q: want \"all\" or \"relay\"", b)
}

// Validate reports every invalid field at once, each as an *option.Error.
func (ice ICE) Validate() error { return ice.validate(false) }

// validate is Validate; with a lobby, the policy "relay" needs no relay
// of its own, since the lobby hands out its relays' credentials.
func (ice ICE) validate(lobby bool) error {
	var errs []error
	bad := func(field string, v any, problem, allowed string, names ...string) {
		errs = append(errs, &option.Error{Pkg: "rollback", Field: "ICE." + field, Value: v, Problem: problem, Allowed: allowed, Names: names, Relative: len(names) > 0})
	}
	for _, s := range ice.STUN {
		if !hasScheme(s, "stun:", "stuns:") {
			bad("STUN", s, "is not a STUN server's URL", `"stun:host:port" or "stuns:host:port"`)
		}
	}
	for _, s := range ice.TURN {
		if !hasScheme(s, "turn:", "turns:") {
			bad("TURN", s, "is not a TURN relay's URL", `"turn:host:port" or "turns:host:port"`)
		}
	}
	for _, f := range []struct {
		name, v string
	}{{"TURNSecret", ice.TURNSecret}, {"TURNUsername", ice.TURNUsername}, {"TURNPassword", ice.TURNPassword}} {
		if len(f.v) > maxLogin {
			bad(f.name, len(f.v), "is too long", "at most 256 bytes")
		}
	}
	secret, login := ice.TURNSecret != "", ice.TURNUsername != "" || ice.TURNPassword != ""
	switch {
	case secret && login:
		bad("TURNSecret", "(set)", "is set with a username or password", "the secret alone, or ICE.TURNUsername and ICE.TURNPassword alone", "ICE.TURNUsername", "ICE.TURNPassword")
	case login && (ice.TURNUsername == "" || ice.TURNPassword == ""):
		bad("TURNUsername", ice.TURNUsername, "is set without its password, or the password without it", "both or neither", "ICE.TURNPassword")
	case len(ice.TURN) > 0 && !secret && !login:
		bad("TURN", strings.Join(ice.TURN, ", "), "lists relays without a login", "ICE.TURNSecret (coturn's shared secret), or ICE.TURNUsername and ICE.TURNPassword", "ICE.TURNSecret", "ICE.TURNUsername", "ICE.TURNPassword")
	case len(ice.TURN) == 0 && (secret || login):
		field := "TURNUsername"
		if secret {
			field = "TURNSecret"
		}
		bad(field, "(set)", "is a login for no relay", "set with at least one relay in ICE.TURN", "ICE.TURN")
	}
	if ice.Policy > ICERelay {
		bad("Policy", ice.Policy, "is not a policy", `"all" or "relay"`)
	} else if ice.Policy == ICERelay && len(ice.TURN) == 0 && !lobby {
		bad("Policy", ice.Policy, "needs a relay", "\"relay\" with at least one relay in ICE.TURN, else \"all\"", "ICE.TURN")
	}
	return errors.Join(errs...)
}

// hasScheme reports whether url starts with one of the schemes and
// names a host after it.
func hasScheme(url string, schemes ...string) bool {
	for _, s := range schemes {
		if rest, ok := strings.CutPrefix(url, s); ok && rest != "" && !strings.ContainsAny(rest, " \t\r\n") {
			return true
		}
	}
	return false
}
