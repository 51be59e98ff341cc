package ecs

// SetContent makes b the text's Content unless it already says so, and
// reports whether it changed: a HUD that formats its line into a stack
// buffer every time it runs allocates only when the wording changes.
//
//	var buf [32]byte
//	text.SetContent(strconv.AppendInt(append(buf[:0], "SCORE "...), int64(score.Points), 10))
//
// A Text is presentation-only: the world hash leaves it out, so a HUD
// written from game state by a cosmetic system ([System.Cosmetic], which
// skips the quiet ticks of a burst) keeps every peer of a match, a replay
// and a sync-test equal however often it runs. What a HUD shows must come
// from state, never be state: a gameplay system that reads a Text acts on
// something the hash does not see.
func (t *Text) SetContent(b []byte) bool {
	if string(b) == t.Content {
		return false
	}
	t.Content = string(b)
	return true
}
