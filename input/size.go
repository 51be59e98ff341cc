package input

import (
	"fmt"
	"strconv"
	"strings"
)

// MarshalText writes s as "WxH", such as "1280x720".
func (s Size) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "%dx%d", s.Width, s.Height), nil
}

// UnmarshalText reads "WxH", such as "1280x720", into s. Any range is the
// user's to check.
func (s *Size) UnmarshalText(b []byte) error {
	w, h, ok := cutPair(string(b), "x")
	if !ok {
		return fmt.Errorf(`input: want a size string "WxH" such as "1280x720"`)
	}
	*s = Size{Width: w, Height: h}
	return nil
}

// cutPair reads two whole numbers separated by sep.
func cutPair(s, sep string) (a, b int, ok bool) {
	x, y, ok := strings.Cut(strings.TrimSpace(s), sep)
	a, err1 := strconv.Atoi(strings.TrimSpace(x))
	b, err2 := strconv.Atoi(strings.TrimSpace(y))
	return a, b, ok && err1 == nil && err2 == nil
}
