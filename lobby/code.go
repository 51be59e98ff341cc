package lobby

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"strings"
)

// A room code is six symbols of Crockford's base32 written as two groups of
// three, "KXR-4TQ": 32^6 = 2^30 (about 1.07e9) codes. Crockford's alphabet
// leaves out I, L, O and U, and reading a code back maps I and L to 1 and O
// to 0, so a code read aloud or typed from a screen in either case comes
// out right.
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// CodeSpace is the number of distinct room codes.
const CodeSpace = 1 << 30

// NewCode returns a random room code from crypto/rand.
func NewCode() string {
	var b [6]byte
	rand.Read(b[:])
	var c [7]byte
	for i, j := 0, 0; i < 6; i++ {
		if i == 3 {
			c[j] = '-'
			j++
		}
		c[j] = codeAlphabet[b[i]&31]
		j++
	}
	return string(c[:])
}

// ParseCode reads a room code as a player typed it: either case, with or
// without the dash or spaces, I and L read as 1 and O as 0. It returns the
// code in its written form, "KXR-4TQ", or an error saying what a code is.
func ParseCode(s string) (string, error) {
	if len(s) > 16 {
		return "", fmt.Errorf("code is %d bytes: a code is 6 letters and digits such as KXR-4TQ", len(s))
	}
	var c []byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '-' || ch == ' ' {
			continue
		}
		if 'a' <= ch && ch <= 'z' {
			ch -= 'a' - 'A'
		}
		switch ch {
		case 'I', 'L':
			ch = '1'
		case 'O':
			ch = '0'
		}
		if strings.IndexByte(codeAlphabet, ch) < 0 {
			return "", fmt.Errorf("code %q has %q: a code is 6 of 0-9 and A-Z but U, such as KXR-4TQ", trim(s), s[i])
		}
		c = append(c, ch)
	}
	if len(c) != 6 {
		return "", fmt.Errorf("code %q has %d symbols: a code is 6 of 0-9 and A-Z but U, such as KXR-4TQ", trim(s), len(c))
	}
	return string(c[:3]) + "-" + string(c[3:]), nil
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns 128 random bits as 26 characters of a-z and 2-7: client ids
// and secrets.
func NewID() string {
	var b [16]byte
	rand.Read(b[:])
	return idEncoding.EncodeToString(b[:])
}
