package netplay

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// A join token is the transport's name, a colon and the base64url
// (unpadded) encoding of: a version byte (1), the session's join secret
// (16 random bytes) and, for QUIC, the SHA-256 fingerprint of the host's
// certificate (32 bytes):
//
//	udp:AeW3...      (23 characters after the colon)
//	quic:AeW3...     (66 characters after the colon)
//
// It is a credential: whoever has it can join the match.
const (
	tokenVersion = 1
	secretLen    = 16
	printLen     = 32
)

// ErrToken is wrapped by the error of a join token that does not parse.
var ErrToken = errors.New("netplay: bad join token")

type token struct {
	transport   string
	secret      [secretLen]byte
	fingerprint [printLen]byte // QUIC only
}

func (t token) String() string {
	b := make([]byte, 0, 1+secretLen+printLen)
	b = append(b, tokenVersion)
	b = append(b, t.secret[:]...)
	if t.transport == QUIC {
		b = append(b, t.fingerprint[:]...)
	}
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
	want := 1 + secretLen
	switch name {
	case UDP:
	case QUIC:
		want += printLen
	default:
		return t, fmt.Errorf("%w: transport %q; allowed: udp or quic", ErrToken, name)
	}
	if len(body) > 2*want {
		return t, fmt.Errorf("%w: %d characters after %q, want %d", ErrToken, len(body), name+":", base64.RawURLEncoding.EncodedLen(want))
	}
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return t, fmt.Errorf("%w: not base64url after %q (%v)", ErrToken, name+":", err)
	}
	if len(b) != want {
		return t, fmt.Errorf("%w: %d bytes after %q, want %d (copied in part?)", ErrToken, len(b), name+":", want)
	}
	if b[0] != tokenVersion {
		return t, fmt.Errorf("%w: version %d; allowed: %d", ErrToken, b[0], tokenVersion)
	}
	t.transport = name
	copy(t.secret[:], b[1:])
	if name == QUIC {
		copy(t.fingerprint[:], b[1+secretLen:])
	}
	return t, nil
}
