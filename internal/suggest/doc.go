// Package suggest finds the names a mistyped one was probably meant to be:
// the edit distance between two strings and the nearest candidates within a
// distance that still reads as a typo.
//
// The config loader, button names (input.ParseButton) and asset lookups
// share it, so "did you mean" means the same thing everywhere:
//
//	if m := suggest.Nearest("recovry", keys, 3); len(m) > 0 {
//		problem += " (" + suggest.DidYouMean(m, false) + ")"
//	}
//
// # Which candidates are near
//
// Comparison ignores case. A candidate is near when its distance from the
// typed name is at most [Limit]: two edits, or a third of the typed name's
// length for long names. Results are ordered by distance, then
// alphabetically, so messages are stable.
package suggest
