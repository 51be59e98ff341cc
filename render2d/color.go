package render2d

import (
	"fmt"
	"strconv"
	"strings"
)

// MarshalText writes c as "#rrggbb", or "#rrggbbaa" when it is not opaque:
// each channel clamped to [0, 1] and rounded to 8 bits.
func (c Color) MarshalText() ([]byte, error) {
	q := func(v float32) uint8 { return uint8(min(max(v, 0), 1)*255 + 0.5) }
	if a := q(c.A); a != 255 {
		return fmt.Appendf(nil, "#%02x%02x%02x%02x", q(c.R), q(c.G), q(c.B), a), nil
	}
	return fmt.Appendf(nil, "#%02x%02x%02x", q(c.R), q(c.G), q(c.B)), nil
}

// UnmarshalText reads "#RRGGBB" (opaque) or "#RRGGBBAA" (straight alpha),
// in hexadecimal, into c.
func (c *Color) UnmarshalText(b []byte) error {
	fail := fmt.Errorf(`render2d: want a colour string "#RRGGBB" or "#RRGGBBAA" (hexadecimal, alpha last) such as "#202028"`)
	hex, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "#")
	if !ok || len(hex) != 6 && len(hex) != 8 {
		return fail
	}
	ch := [4]uint8{3: 255}
	for i := 0; i < len(hex); i += 2 {
		n, err := strconv.ParseUint(hex[i:i+2], 16, 8)
		if err != nil {
			return fail
		}
		ch[i/2] = uint8(n)
	}
	*c = RGBA8(ch[0], ch[1], ch[2], ch[3])
	return nil
}
