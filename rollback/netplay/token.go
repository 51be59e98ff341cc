package netplay

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// A join token is the transport's name, a colon and the base64url
// (unpadded) encoding of: a version byte (1), the session's join secret
// (16 random bytes) and the network's pin, up to MaxPin bytes (for QUIC,
// the SHA-256 fingerprint of the host's certificate, 32 bytes; none for
// UDP):
//
//	udp:AeW3...      (23 characters after the colon)
//	quic:AeW3...     (66 characters after the colon)
//
// It is a credential: whoever has it can join the match.
const (
	tokenVersion = 1
	secretLen    = 16
)

// ErrToken is wrapped by the error of a join token that does not parse.
var ErrToken = errors.New("netplay: bad join token")

type token struct {
	transport string
	secret    [secretLen]byte
	pin       [MaxPin]byte
	pinLen    int
}

func (t token) String() string {
	b := make([]byte, 0, 1+secretLen+MaxPin)
	b = append(b, tokenVersion)
	b = append(b, t.secret[:]...)
	b = append(b, t.pin[:t.pinLen]...)
	return t.transport + ":" + base64.RawURLEncoding.EncodeToString(b)
}

// parseToken reads a join token, saying what is wrong with one that does
// not parse.
func parseToken(s string) (token, error) {
	var t token
	name, body, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return t, fmt.Errorf("%w: no \"transport:\" prefix; a token looks like udp:... or quic:..., as the host printed it", ErrToken)
	}
	if !networkName(name) {
		return t, fmt.Errorf("%w: transport %q; allowed: a network's name (1 to 16 of a-z, 0-9 and '-'), such as udp or quic", ErrToken, name)
	}
	least, most := 1+secretLen, 1+secretLen+MaxPin
	if len(body) > 2*most {
		return t, fmt.Errorf("%w: %d characters after %q, want %d to %d", ErrToken, len(body), name+":", base64.RawURLEncoding.EncodedLen(least), base64.RawURLEncoding.EncodedLen(most))
	}
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return t, fmt.Errorf("%w: not base64url after %q (%v)", ErrToken, name+":", err)
	}
	if name == UDP && len(b) != least {
		return t, fmt.Errorf("%w: %d bytes after %q, want %d (copied in part?)", ErrToken, len(b), name+":", least)
	}
	if len(b) < least || len(b) > most {
		return t, fmt.Errorf("%w: %d bytes after %q, want %d to %d (copied in part?)", ErrToken, len(b), name+":", least, most)
	}
	if b[0] != tokenVersion {
		return t, fmt.Errorf("%w: version %d; allowed: %d", ErrToken, b[0], tokenVersion)
	}
	t.transport = name
	copy(t.secret[:], b[1:])
	t.pinLen = copy(t.pin[:], b[1+secretLen:])
	return t, nil
}
