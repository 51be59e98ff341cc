package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// EffectiveTOML renders the configuration in force as a TOML document:
// every key with its value and, in a comment, where the value came from
// (default, the game's embedded file, a file path, command line). It is
// what --print-config shows, and it parses back to the same values.
func (c Config) EffectiveTOML() []byte {
	var b strings.Builder
	b.WriteString("# The configuration in force. After each value, where it came from:\n")
	b.WriteString("# default, the game's embedded file, a file, or the command line.\n")
	table := ""
	open := func(t string) {
		if t != table {
			fmt.Fprintf(&b, "\n[%s]\n", t)
			table = t
		}
	}
	var a assigner
	line := func(key, name string, value any) {
		fmt.Fprintf(&b, "%-36s # %s%s\n", a.assign(name, value), c.Source(key), c.note(key))
	}
	keys := func(fs []field) {
		for i := range fs {
			f := &fs[i]
			dot := strings.LastIndexByte(f.key, '.')
			open(f.key[:dot])
			line(f.key, f.key[dot+1:], f.get(&c))
		}
	}
	keys(fields)
	open(bindingsTable)
	for _, action := range slices.Sorted(maps.Keys(c.Bindings)) {
		line(bindingsTable+"."+action, action, c.Bindings[action])
	}
	if c.game != nil {
		open(gameTableName)
		keys(c.game.fields)
	}
	return []byte(b.String())
}

// note returns what --print-config adds after the source of key: for
// timing.interval, which interval variable timing uses.
func (c Config) note(key string) string {
	switch {
	case key != intervalKey:
		return ""
	case c.IntervalSet():
		return "; variable timing uses it as set"
	case c.Runtime.FrameCap > 0:
		return fmt.Sprintf("; variable timing follows the presentation instead: every %v (runtime.frame_cap = %d)",
			perSecond(c.Runtime.FrameCap), c.Runtime.FrameCap)
	case c.Window.VSync:
		return "; variable timing follows the presentation instead: the display's refresh (window.vsync), this value where the display reports none"
	}
	return "; variable timing uses it: no runtime.frame_cap and no window.vsync to follow"
}
