package option

import (
	"strconv"
	"unicode/utf8"
)

// EchoLimit is the most bytes of a value that an error message repeats
// whole; a longer value is cut by [Echo].
const EchoLimit = 64

// echoPrefix is how many bytes of a cut value an error message keeps.
const echoPrefix = 24

// Echo returns v as an error message should repeat it: unchanged when it
// is at most [EchoLimit] bytes (quotes aside), else its first bytes, cut at
// a character, quoted and followed by its length, so that a 900,000-byte
// value gives a line, not 900 KB: "AAAAAAAA…" (900,000 bytes). A v that
// is quoted already (a string as a configuration file writes it) is
// measured and cut inside its quotes. Every place that echoes a value the
// user gave (option errors, framework/config's, the command line's) goes
// through it.
func Echo(v string) string {
	body := v
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		body = v[1 : len(v)-1]
	}
	if len(body) <= EchoLimit {
		return v
	}
	cut := echoPrefix
	for cut > 0 && !utf8.RuneStart(body[cut]) {
		cut--
	}
	b := make([]byte, 0, cut+32)
	b = append(b, '"')
	b = append(b, body[:cut]...)
	b = append(b, "…\" ("...)
	b = appendGrouped(b, len(body))
	b = append(b, " bytes)"...)
	return string(b)
}

// appendGrouped appends n with its thousands separated by commas.
func appendGrouped(b []byte, n int) []byte {
	s := strconv.Itoa(n)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return b
}
