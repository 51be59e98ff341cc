package ui

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/input"
)

// SettingsOptions configure [NewSettings].
type SettingsOptions struct {
	// Config is the configuration the game runs with
	// (framework.Setup.Config); its [game] table lists the settings.
	Config config.Config
	// Rebind lists the actions offered for rebinding, in order.
	Rebind []input.Action
	// Path is the player's config file, written by Save: the file the
	// game read at start, Config.PlayerFile() (the path given to
	// --config, or the config.toml beside the executable), or when it
	// read none config.FileBesideExecutable("config.toml"), which the next
	// start reads. "" writes nothing: leave it empty in a
	// replay (framework.Setup.Runtime.Options().Record.Reader is set),
	// which runs the recorded menu use again, Save included, and in tests.
	Path string
	// Changed is fired whenever a setting changes, Save by the Save
	// button (after which the file is written) and Back by the Back
	// button; all three are the game's actions. A zero Save or Back
	// leaves its button out.
	Changed, Save, Back input.Action
}

// Settings is an options screen for the game's [game] table and its key
// bindings: a row per setting (a toggle for a bool, a slider for a number
// with a range, a choice for a string with choices, a text field for
// another string; other keys are left out), a binding row per action to
// rebind, and Save and Back buttons. Values live in the widgets, so they
// are game state like the rest of the menu, and [Settings.Config] reads
// them back as a configuration with the same checks as a file.
type Settings struct {
	ui   *UI
	opts SettingsOptions
	rows []settingRow
	err  error
}

// settingRow is one [game] key shown by a widget captioned label.
type settingRow struct {
	key, label string
	kind       Kind
	typ        reflect.Type
	lo, hi     float64 // a float slider's range, over floatSteps steps
	float      bool
}

// floatSteps is how many steps a slider for a float setting has.
const floatSteps = 20

// NewSettings prepares an options screen on u; [Settings.Build] spawns
// it. It fails when the configuration has no [game] table and nothing is
// offered for rebinding, or a binding to rebind is analog.
func NewSettings(u *UI, opts SettingsOptions) (*Settings, error) {
	s := &Settings{ui: u, opts: opts}
	var errs []error
	for _, k := range opts.Config.GameKeys() {
		label := strings.TrimPrefix(k.Key, "game.")
		r := settingRow{key: k.Key, label: label, typ: reflect.TypeOf(k.Value)}
		v := reflect.ValueOf(k.Value)
		switch {
		case v.Kind() == reflect.Bool:
			r.kind = KindToggle
		case v.Kind() == reflect.String && k.Choices != nil:
			r.kind = KindChoice
		case v.Kind() == reflect.String:
			r.kind = KindTextField
		case v.CanInt() && r.typ.String() != "time.Duration" && k.Min != nil && k.Max != nil:
			lo, hi := reflect.ValueOf(k.Min).Int(), reflect.ValueOf(k.Max).Int()
			if lo < math.MinInt32 || hi > math.MaxInt32 {
				continue
			}
			r.kind, r.lo, r.hi = KindSlider, float64(lo), float64(hi)
		case v.CanUint() && k.Min != nil && k.Max != nil:
			hi := reflect.ValueOf(k.Max).Uint()
			if hi > math.MaxInt32 {
				continue
			}
			r.kind, r.lo, r.hi = KindSlider, float64(reflect.ValueOf(k.Min).Uint()), float64(hi)
		case v.CanFloat() && k.Min != nil && k.Max != nil:
			r.kind, r.lo, r.hi, r.float = KindSlider, reflect.ValueOf(k.Min).Float(), reflect.ValueOf(k.Max).Float(), true
		default:
			continue // a list, a duration, an open range: not for a menu
		}
		s.rows = append(s.rows, r)
	}
	for _, act := range opts.Rebind {
		if u.opts.Actions.Name(act) == "" || u.opts.Actions.Analog(act) {
			errs = append(errs, fmt.Errorf("ui: SettingsOptions.Rebind: action %d is not a registered button action", act))
		}
	}
	if len(s.rows) == 0 && len(opts.Rebind) == 0 {
		errs = append(errs, errors.New("ui: NewSettings: nothing to show: the configuration's [game] table has no key a menu can edit, and Rebind is empty"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return s, nil
}

// Build spawns the screen's rows inside parent (a panel the game made,
// with its title and place) through b.
func (s *Settings) Build(b *Builder, parent ecs.Entity) {
	cfg := s.opts.Config
	for _, k := range cfg.GameKeys() {
		r := s.row(k.Key)
		if r == nil {
			continue
		}
		v := reflect.ValueOf(k.Value)
		var w Widget
		switch r.kind {
		case KindToggle:
			w = Toggle(r.label, v.Bool(), s.opts.Changed)
		case KindChoice:
			i := int32(0)
			for j, c := range k.Choices {
				if c == v.String() {
					i = int32(j)
				}
			}
			w = Choice(r.label, k.Choices, i, s.opts.Changed)
		case KindTextField:
			w = TextField(r.label, v.String(), 0, s.opts.Changed)
		case KindSlider:
			if r.float {
				at := int32(math.Round((v.Float() - r.lo) / (r.hi - r.lo) * floatSteps))
				w = Slider(r.label, at, 0, floatSteps, 1, s.opts.Changed).Showing(r.lo, (r.hi-r.lo)/floatSteps)
			} else if v.CanUint() {
				w = Slider(r.label, int32(v.Uint()), int32(r.lo), int32(r.hi), 1, s.opts.Changed)
			} else {
				w = Slider(r.label, int32(v.Int()), int32(r.lo), int32(r.hi), 1, s.opts.Changed)
			}
		}
		b.Add(parent, w)
	}
	for _, act := range s.opts.Rebind {
		b.Add(parent, Binding(s.ui.opts.Actions.Name(act), act))
	}
	if s.opts.Save != 0 || s.opts.Back != 0 {
		row := b.Add(parent, HStack())
		if s.opts.Save != 0 {
			b.Add(row, Button("Save", s.opts.Save).Sized(s.ui.opts.Theme.ItemWidth/2, 0))
		}
		if s.opts.Back != 0 {
			b.Add(row, Button("Back", s.opts.Back).Sized(s.ui.opts.Theme.ItemWidth/2, 0))
		}
	}
}

func (s *Settings) row(key string) *settingRow {
	for i := range s.rows {
		if s.rows[i].key == key {
			return &s.rows[i]
		}
	}
	return nil
}

// Config returns the game's configuration with the screen's values in
// its [game] table, each applied as [config.Config.Set] applies an
// override, with the same checks. Call it when Changed fires, and decode
// the result into the game's settings (config.Config.DecodeGame). It
// reads the widgets, so call it from a system, after they were spawned.
func (s *Settings) Config() (config.Config, error) {
	cfg := s.opts.Config
	var errs []error
	for i := range s.rows {
		r := &s.rows[i]
		w := s.ui.Widget(s.ui.Find(r.label))
		if w == nil {
			continue
		}
		var lit string
		switch r.kind {
		case KindToggle:
			lit = strconv.FormatBool(w.On)
		case KindChoice:
			if w.Value < 0 || int(w.Value) >= len(w.Items) {
				continue
			}
			lit = w.Items[w.Value]
		case KindTextField:
			lit = w.Input
		case KindSlider:
			if r.float {
				lit = strconv.FormatFloat(r.lo+(r.hi-r.lo)*float64(w.Value)/floatSteps, 'g', -1, 64)
			} else {
				lit = strconv.Itoa(int(w.Value))
			}
		}
		if err := cfg.Set(r.key + "=" + lit); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return s.opts.Config, err
	}
	return cfg, nil
}

// Save writes the screen's settings and the game's current bindings to
// the player's config file ([config.Config.WritePlayerFile]: checked as
// loading it would be, other keys kept). With no Path it writes nothing.
// Call it when the Save action fires. Its result is also kept for
// [Settings.Saved]; it is not game state, as a replay writes nothing, so
// show it from a cosmetic system, never in a widget.
func (s *Settings) Save() error {
	cfg, err := s.Config()
	if err == nil && s.opts.Path != "" {
		err = cfg.WritePlayerFile(s.opts.Path, s.ui.opts.Actions)
	}
	s.err = err
	return err
}

// Saved returns the result of the latest [Settings.Save].
func (s *Settings) Saved() error { return s.err }
