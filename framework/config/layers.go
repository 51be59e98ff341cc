package config

import (
	"os"
	"path/filepath"
)

// Layers are the places a game's configuration comes from, in the order
// they apply: each overrides what comes before it.
type Layers struct {
	// Game, if not nil, points to the game's settings struct: see
	// [Config.WithGame]. Its values are the [game] table's defaults.
	Game any
	// Embedded is the game's own config.toml, compiled into the game with
	// //go:embed; it overrides the framework's defaults. Nil for none.
	Embedded []byte
	// EmbeddedName names it in messages; "" is "embedded config.toml".
	EmbeddedName string
	// File is the path of a configuration file to read next (the file
	// beside the game, or --config); "" for none. A file that cannot be
	// read is an error.
	File string
	// Sets are "key=value" overrides applied last, in order (--set).
	Sets []string
}

// Build makes the configuration from its layers: the framework's defaults,
// the game's settings struct, the embedded file, the file, then the
// overrides. It reports every problem in every layer at once and returns
// the zero Config on any; a layer that fails keeps what it could read, so
// later layers are still checked. Each key remembers which layer set it
// ([Config.Source], [Config.EffectiveTOML]).
func Build(l Layers) (Config, error) {
	c := Default()
	if l.Game != nil {
		g, err := c.WithGame(l.Game)
		if err != nil {
			return Config{}, err
		}
		c = g
	}
	var errs []error
	last := defaultSource.Name
	if l.Embedded != nil {
		src := Source{Origin: FromEmbedded, Name: l.EmbeddedName}
		if src.Name == "" {
			src.Name = "embedded config.toml"
		}
		errs = append(errs, c.apply(src, l.Embedded)...)
		last = src.Name
	}
	errs = append(errs, c.applyPlayer(l.File, l.Sets)...)
	switch {
	case len(l.Sets) > 0:
		last = commandLine.Name
	case l.File != "":
		last = l.File
	}
	// A relation is reported against the source of the key it names, or
	// the last layer when nobody set that key.
	name := func(key string) string {
		if s, ok := c.sources[key]; ok {
			return s.Name
		}
		return last
	}
	return checked(c, c.relations(name, errs))
}

// FileBesideExecutable returns the path of the file called name in the
// directory of the running executable, and whether it exists: where a
// shipped game keeps the config.toml a player edits. Under `go run` the
// executable lives in a temporary directory; framework.Flags then reads
// the working directory's config.toml for a game that embeds none.
func FileBesideExecutable(name string) (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	path := filepath.Join(filepath.Dir(exe), name)
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return path, false
	}
	return path, true
}
