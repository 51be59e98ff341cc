package suggest

import (
	"cmp"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Distance is the Levenshtein distance between a and b counted in runes:
// the fewest insertions, deletions and substitutions that turn a into b. It
// is case-sensitive; [Nearest] lowers case first.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Limit is the largest distance from s that still reads as a typo of s: 2,
// or a third of the length of s in runes when that is more.
func Limit(s string) int { return max(2, utf8.RuneCountInString(s)/3) }

// Nearest returns up to n of the candidates whose distance from s, ignoring
// case, is at most [Limit](s), nearest first and ties alphabetical.
// Duplicates are listed once. It returns nil when none is near, when s is
// empty or when n < 1.
func Nearest(s string, candidates []string, n int) []string {
	return NearestBy(s, func(yield func(string, string) bool) {
		for _, c := range candidates {
			if !yield(c, c) {
				return
			}
		}
	}, n)
}

// NearestBy is [Nearest] over spellings that stand for names: each pair is
// (spelling compared with s, name returned). A name with several spellings,
// such as a button with aliases, counts at the distance of its nearest one.
func NearestBy(s string, spellings iter.Seq2[string, string], n int) []string {
	if s == "" || n < 1 {
		return nil
	}
	type match struct {
		name string
		d    int
	}
	key := strings.ToLower(s)
	limit := Limit(s)
	klen := utf8.RuneCountInString(key)
	var found []match
	for spelling, name := range spellings {
		// Lengths further apart than the limit cannot be near; skipping them
		// keeps a long garbage name from costing a full comparison each.
		if d := utf8.RuneCountInString(spelling) - klen; d > limit || -d > limit {
			continue
		}
		d := Distance(key, strings.ToLower(spelling))
		if d > limit {
			continue
		}
		if i := slices.IndexFunc(found, func(m match) bool { return m.name == name }); i >= 0 {
			found[i].d = min(found[i].d, d)
			continue
		}
		found = append(found, match{name, d})
	}
	slices.SortFunc(found, func(a, b match) int {
		return cmp.Or(cmp.Compare(a.d, b.d), strings.Compare(a.name, b.name))
	})
	if len(found) > n {
		found = found[:n]
	}
	if len(found) == 0 {
		return nil
	}
	out := make([]string, len(found))
	for i, m := range found {
		out[i] = m.name
	}
	return out
}

// Best returns the candidates nearest to s, ignoring case, when they are
// within [Limit](s): all those at the smallest distance found, up to three,
// alphabetical. A message names these, so a typo gets the one plausible
// fix rather than every name a few edits away.
func Best(s string, candidates []string) []string {
	near := Nearest(s, candidates, len(candidates))
	if len(near) == 0 {
		return nil
	}
	key := strings.ToLower(s)
	best := Distance(key, strings.ToLower(near[0]))
	n := 1
	for n < len(near) && n < 3 && Distance(key, strings.ToLower(near[n])) == best {
		n++
	}
	return near[:n]
}

// Closest returns the single nearest candidate, or "" when none is near.
func Closest(s string, candidates []string) string {
	if m := Nearest(s, candidates, 1); len(m) > 0 {
		return m[0]
	}
	return ""
}

// DidYouMean phrases matches as a question: "did you mean a?" or "did you
// mean a, b or c?", each quoted as a Go string when quote is set. It returns
// "" for no matches.
func DidYouMean(matches []string, quote bool) string {
	if len(matches) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("did you mean ")
	for i, m := range matches {
		switch {
		case i == 0:
		case i == len(matches)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		if quote {
			b.WriteString(strconv.Quote(m))
		} else {
			b.WriteString(m)
		}
	}
	b.WriteString("?")
	return b.String()
}

// Hint is the parenthesised suggestion for s among candidates, ready to
// append to a message: ` (did you mean "paddle"?)`, or "" when nothing is
// near. It offers the [Best] names, quoted when quote is set.
func Hint(s string, candidates []string, quote bool) string {
	q := DidYouMean(Best(s, candidates), quote)
	if q == "" {
		return ""
	}
	return " (" + q + ")"
}
