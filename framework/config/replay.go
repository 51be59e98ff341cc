package config

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// presentationKeys are the keys that change only how a session is shown
// or heard, never what it simulates: a replay applies them.
var presentationKeys = []string{
	"window.title", "window.width", "window.height", "window.resizable",
	"window.min_size", "window.max_size", "window.aspect_ratio",
	"window.fullscreen", "window.vsync", "window.headless", "window.clear_color",
	"render.filter",
	"audio.enabled", "audio.master_volume", "audio.music_volume",
	"audio.effects_volume", "audio.ui_volume",
}

// PresentationKeys returns the keys that change only how a session is
// shown or heard (the window's size, title and mode, vsync, the texture
// filter, audio on or off and the volumes): the ones a replay takes from
// --config and --set ([Config.Override]). Every other key, the [game]
// table and the bindings included, may change what the game simulates.
func PresentationKeys() []string { return slices.Clone(presentationKeys) }

// Override applies a player's layers to a recorded configuration c, for a
// replay: a configuration file (path, "" for none) and then sets
// ("key=value", --set). A key these set to the value it has in c changes
// nothing and is accepted. Any other key must be one of
// [PresentationKeys]: a key that would change the simulation is refused
// with its source, since a replay must run with the configuration it was
// recorded with. A file that cannot be read or does not parse, and a value
// out of its range, are errors as in [Build]. It reports every problem at
// once and returns c with the presentation keys applied.
func (c Config) Override(path string, sets []string) (Config, error) {
	next := c.clone()
	if errs := next.applyPlayer(path, sets); len(errs) > 0 {
		return checked(Config{}, errs)
	}
	var errs []error
	for _, k := range slices.Sorted(maps.Keys(next.sources)) {
		s := next.sources[k]
		if s == c.sources[k] || s.Origin != FromFile && s.Origin != FromCommandLine || slices.Contains(presentationKeys, k) {
			continue
		}
		f := next.field(k) // a key with a source exists in both
		recorded, now := f.get(&c), f.get(&next)
		if reflect.DeepEqual(recorded, now) {
			continue
		}
		errs = append(errs, &Error{File: s.Name, Key: k, Value: formatValue(now),
			Problem: fmt.Sprintf("a replay runs with the recorded configuration (%s), and this key may change what the game simulates", formatValue(recorded)),
			Allowed: "the keys that only change how the replay is shown or heard: " + strings.Join(presentationKeys, ", ")})
	}
	if len(errs) > 0 {
		return checked(Config{}, errs)
	}
	return checked(next, next.relations(func(key string) string { return next.Source(key).Name }, nil))
}
