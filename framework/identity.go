package framework

import (
	"cmp"
	"embed"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"strings"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback"
)

// matchIdentity names what every peer of a match must share: the game
// (its title, or the program's name), its simulation code (the driver's
// Version of the game's Source, whose warnings, when it cannot tell every
// build apart, go to w) and a hash of the configuration that decides the
// simulation (configHash). Window, sound, input bindings, pacing and
// each peer's patience may differ between players.
func matchIdentity(g Game, cfg config.Config, d matchDriver, w io.Writer) (rollback.Identity, error) {
	id := rollback.Identity{Game: cmp.Or(g.Title, programName())}
	var source fs.FS
	if g.Source != (embed.FS{}) {
		source = g.Source
	}
	version, warnings, err := d.Version(source)
	if err != nil {
		return id, fmt.Errorf("framework: Game.Source: %w", err)
	}
	for _, warn := range warnings {
		fmt.Fprintf(w, "%s: warning: %s\n", programName(), warn)
	}
	id.Game, id.Version = cut(id.Game), cut(version)
	id.Config = configHash(g, cfg)
	id.Settings = matchSettings(cfg)
	return id, nil
}

// cut cuts s to what an identity's name holds.
func cut(s string) string { return s[:min(len(s), rollback.MaxIdentityName)] }

// matchSettings lists the values configHash hashes, key by key as
// --print-config writes them, so that a refused joiner is told which
// differ: timing's mode, step and rate, the [net] table's players,
// delay, window, hash interval and transport, and every [game] key.
func matchSettings(cfg config.Config) []rollback.Setting {
	var out []rollback.Setting
	table := ""
	for line := range strings.Lines(string(cfg.EffectiveTOML())) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[]")
			continue
		}
		name, rest, ok := strings.Cut(line, " = ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		key := table + "." + strings.TrimSpace(name)
		switch key {
		case "timing.mode", "timing.step", "timing.rate", "net.players", "net.delay", "net.window", "net.hash_every", "net.transport":
		default:
			if table != "game" && !strings.HasPrefix(table, "game.") {
				continue
			}
		}
		out = append(out, rollback.Setting{Key: key, Value: tomlValue(rest)})
	}
	return out
}

// tomlValue is the value at the start of rest, without the comment
// --print-config writes after it (a # outside quotes).
func tomlValue(rest string) string {
	quoted := false
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == '#' && !quoted:
			return strings.TrimSpace(rest[:i])
		}
	}
	return strings.TrimSpace(rest)
}

// configHash hashes, in a fixed order, the owners' values that decide a
// match's simulation: the timing's mode, step and rate; the [net] table's
// players, input delay, prediction window, hash interval and transport
// (not its timeouts, which are each peer's own); and the game's decoded
// settings struct, the [game] table, field by field in declaration order
// (fmt's %#v). Every peer's game is the same build (the identity's
// version), so the same struct type.
func configHash(g Game, cfg config.Config) uint64 {
	h := fnv.New64a()
	t, n := cfg.Timing, cfg.Net
	fmt.Fprintf(h, "timing %v %d %d/%d\n", t.Mode, t.FixedStep, t.Rate.Num, t.Rate.Den)
	fmt.Fprintf(h, "net %d %d %d %d %v\n", n.Players, n.Delay, n.Window, n.HashEvery, n.Transport)
	if g.Settings != nil {
		fmt.Fprintf(h, "game %#v\n", g.Settings)
	}
	return h.Sum64()
}
