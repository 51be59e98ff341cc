package config

import "fmt"

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
func (s Source) String() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Origin.String()
}

// defaultSource is the source of every key nobody set.
var defaultSource = Source{Origin: FromDefaults, Name: "default"}

// commandLine is the source of [Config.Set].
var commandLine = Source{Origin: FromCommandLine, Name: "command line"}

// Source returns where the value of key came from. A key nobody set, and a
// key that does not exist, report [FromDefaults].
func (c Config) Source(key string) Source {
	if s, ok := c.sources[key]; ok {
		return s
	}
	return defaultSource
}

func (c *Config) setSource(key string, s Source) {
	if c.sources == nil {
		c.sources = map[string]Source{}
	}
	c.sources[key] = s
}
