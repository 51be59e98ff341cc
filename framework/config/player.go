package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/metronome-go/metronome/input"
)

// GameKey describes one key of the [game] table, for a settings menu that
// offers it: its name, its value in force and what its tags allow.
type GameKey struct {
	// Key is the full key, such as "game.volume" or "game.theme.focus".
	Key string
	// Value is the current value, of the field's type (bool, an integer
	// or float type, string, []string, time.Duration, or a type that reads
	// and writes its own text).
	Value any
	// Min and Max are the ends of the range tag, of the field's type; nil
	// for an open end.
	Min, Max any
	// Choices are the strings of the choice tag, nil for none.
	Choices []string
}

// GameKeys lists the [game] table's keys in the order of the settings
// struct's fields, with their current values; nil without a [game] table
// ([Config.WithGame]).
func (c Config) GameKeys() []GameKey {
	if c.game == nil {
		return nil
	}
	keys := make([]GameKey, 0, len(c.game.fields))
	for i := range c.game.fields {
		f := &c.game.fields[i]
		keys = append(keys, GameKey{Key: f.key, Value: f.load(c.game.val), Min: f.lo, Max: f.hi, Choices: f.choices})
	}
	return keys
}

// PlayerFile returns the path of the configuration file c was built from
// ([Layers.File]: --config, or the config.toml beside the game), "" when
// it read none. That file is where [Config.WritePlayerFile] belongs: the
// next start that names it, or finds it, reads the player's changes.
func (c Config) PlayerFile() string { return c.file }

// WritePlayerFile saves what a player changed into the configuration file
// at path (the file beside the game, or --config), keeping the file's
// other keys: every [game] key a file or an override ([Config.Set]) set,
// and in [input.bindings] the bindings of every action of actions that
// differ from its registered defaults (an action back at its defaults
// loses its line). A nil actions leaves the bindings as the file has
// them.
//
// Nothing is written unless the new document passes the checks loading
// it would make: [Parse] onto c, then [Config.CheckBindings]. A file that
// exists but cannot be read or parsed is not overwritten. The file is
// replaced whole (a temporary file renamed over it), so a crash leaves
// the old one or the new one; comments in it are not kept. Errors name
// the file.
func (c Config) WritePlayerFile(path string, actions *input.Actions) error {
	if path == "" {
		return errors.New("config: WritePlayerFile: no path given")
	}
	doc := map[string]any{}
	switch data, err := readFile(path); {
	case err == nil:
		if _, err := toml.Decode(string(data), &doc); err != nil {
			return &Error{File: path, Problem: "cannot update the file, it does not parse: " + tomlText(err).Error()}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return &Error{File: path, Problem: "cannot read the file: " + err.Error()}
	}
	if c.game != nil {
		for i := range c.game.fields {
			f := &c.game.fields[i]
			if o := c.Source(f.key).Origin; o != FromFile && o != FromCommandLine {
				continue
			}
			v := f.load(c.game.val)
			if d, ok := v.(time.Duration); ok {
				v = d.String()
			}
			setPath(doc, f.key, v)
		}
	}
	if actions != nil {
		for act := input.Action(1); int(act) <= actions.Len(); act++ {
			key := "input.bindings." + actions.Name(act)
			if actions.Overridden(act) {
				setPath(doc, key, actions.BindingNames(act, false))
			} else {
				deletePath(doc, key)
			}
		}
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return &Error{File: path, Problem: "cannot write the settings: " + err.Error()}
	}
	checked, err := Parse(path, buf.Bytes(), c)
	if err != nil {
		return err
	}
	if actions != nil {
		if err := checked.CheckBindings(actions); err != nil {
			return err
		}
	}
	return replaceFile(path, buf.Bytes())
}

// setPath stores v under the dotted key in doc, making tables on the way.
func setPath(doc map[string]any, key string, v any) {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		t, ok := doc[p].(map[string]any)
		if !ok {
			t = map[string]any{}
			doc[p] = t
		}
		doc = t
	}
	doc[parts[len(parts)-1]] = v
}

// deletePath removes the dotted key from doc, if it is there.
func deletePath(doc map[string]any, key string) {
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		t, ok := doc[p].(map[string]any)
		if !ok {
			return
		}
		doc = t
	}
	delete(doc, parts[len(parts)-1])
}

// replaceFile writes data to a temporary file beside path and renames it
// over path.
func replaceFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return &Error{File: path, Problem: "cannot write the file: " + err.Error()}
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return &Error{File: path, Problem: "cannot write the file: " + err.Error()}
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return &Error{File: path, Problem: fmt.Sprintf("cannot replace the file: %v", err)}
	}
	return nil
}
