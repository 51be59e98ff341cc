package config

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
		var err error
		if c, err = c.WithGame(l.Game); err != nil {
			return Config{}, err
		}
	}
	var errs []error
	last := defaultSource.Name
	if l.Embedded != nil {
		last = cmp.Or(l.EmbeddedName, "embedded config.toml")
		errs = c.apply(Source{Origin: FromEmbedded, Name: last}, l.Embedded)
	}
	errs = append(errs, c.applyPlayer(l.File, l.Sets)...)
	if len(l.Sets) > 0 {
		last = commandLine.Name
	} else if l.File != "" {
		last = l.File
	}
	// A relation is reported against the source of the key it names, or
	// the last layer when nobody set that key.
	return checked(c, c.relations(func(key string) string { return cmp.Or(c.sources[key].Name, last) }, errs))
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

// Origin says what kind of place a value came from.
type Origin uint8

const (
	// FromDefaults is the framework's embedded defaults, or for a [game]
	// key the initial value of the game's settings struct.
	FromDefaults Origin = iota
	// FromEmbedded is the game's own config.toml, compiled into the game.
	FromEmbedded
	// FromFile is a configuration file read at start.
	FromFile
	// FromCommandLine is an override such as --set key=value.
	FromCommandLine
)

var originNames = [...]string{"defaults", "embedded", "file", "command line"}

func (o Origin) String() string {
	if int(o) < len(originNames) {
		return originNames[o]
	}
	return fmt.Sprintf("Origin(%d)", uint8(o))
}

// Source is where one value came from: its origin and a name for it (a file
// path, "embedded config.toml", "command line"). Errors name the source as
// their file.
type Source struct {
	Origin Origin
	Name   string
}

// String returns the name, or the origin when the name is empty.
func (s Source) String() string { return cmp.Or(s.Name, s.Origin.String()) }

var (
	// defaultSource is the source of every key nobody set.
	defaultSource = Source{Origin: FromDefaults, Name: "default"}
	// commandLine is the source of [Config.Set].
	commandLine = Source{Origin: FromCommandLine, Name: "command line"}
)

// Source returns where the value of key came from. A key nobody set, and a
// key that does not exist, report [FromDefaults].
func (c Config) Source(key string) Source { return cmp.Or(c.sources[key], defaultSource) }

func (c *Config) setSource(key string, s Source) {
	if c.sources == nil {
		c.sources = map[string]Source{}
	}
	c.sources[key] = s
}

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
			v := f.get(&c)
			if f.secret && v != "" {
				v = hiddenValue
			}
			line(f.key, f.key[dot+1:], v)
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
