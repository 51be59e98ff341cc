package config_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/templates"
)

// needCode lists the words an owner knows that a file alone cannot use.
var needCode = map[string][]string{"timing.debt.past_cutoff": {"resync", "shared-slowdown"}}

// schemePrefix finds the scheme a string key's comment shows its values
// start with, such as "ws://HOST:PORT".
var schemePrefix = regexp.MustCompile(`"([a-z]+://)`)

// keyComments returns, for every key in defaults.toml, its comment with
// the continuation lines below it.
func keyComments(t *testing.T) map[string]string {
	t.Helper()
	return commentsOf(config.DefaultsTOML())
}

// commentsOf returns, for every key a TOML document assigns, its comment
// with the indented comment lines below it.
func commentsOf(doc []byte) map[string]string {
	out := map[string]string{}
	table, last := "", ""
	for _, line := range strings.Split(string(doc), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "["):
			table = strings.Trim(strings.Fields(trimmed)[0], "[]")
			last = ""
		case strings.HasPrefix(trimmed, "#"):
			if last != "" && strings.HasPrefix(line, " ") {
				out[last] += " " + strings.TrimPrefix(trimmed, "#")
			}
		case trimmed != "":
			name, _, _ := strings.Cut(trimmed, "=")
			last = table + "." + strings.TrimSpace(name)
			_, comment, _ := strings.Cut(trimmed, " # ") // a value may hold a "#"
			out[last] = comment
		}
	}
	return out
}

// The ranges written in defaults.toml are the ones the owning packages
// enforce: each documented bound is accepted and the value just past it is
// refused, both from a file and from --set.
func TestDocumentedRanges(t *testing.T) {
	comments := keyComments(t)
	// Keys whose range depends on another key: the settings that fix the
	// other key, and the value the documented name stands for.
	context := map[string][]string{
		// A size bound holds the window's own size: make room for it.
		"window.min_size":        {"window.width=16384", "window.height=16384"},
		"window.max_size":        {"window.width=1", "window.height=1"},
		"timing.recovery_prefix": {"timing.max_fixed_updates=5"},
		"timing.debt.cutoff":     {"timing.step=10ms", "timing.recovery=repay-debt"},
		"polling.delivery":       {"timing.mode=fixed"},
		// A relay needs a login, a login a relay, relaying a relay.
		"net.ice_policy":    {"net.turn=turn:relay.example.org:3478", "net.turn_secret=s"},
		"net.turn":          {"net.turn_secret=s"},
		"net.turn_secret":   {"net.turn=turn:relay.example.org:3478"},
		"net.turn_username": {"net.turn=turn:relay.example.org:3478", "net.turn_password=p"},
		"net.turn_password": {"net.turn=turn:relay.example.org:3478", "net.turn_username=u"},
	}
	symbols := map[string]string{"max_fixed_updates": "5", "step": "10ms", "players": "2"}
	// Values outside the range that keep a meaning of their own.
	special := map[string]string{"runtime.frame_cap": "0", "window.min_size": `"0x0"`, "window.max_size": `"0x0"`, "window.aspect_ratio": `"0:0"`, "window.logical_size": `"0x0"`}

	kinds := kindsOfKeys(t)
	for _, key := range config.Keys() {
		comment, ok := comments[key]
		if !ok {
			t.Errorf("%s is not in defaults.toml", key)
			continue
		}
		t.Run(key, func(t *testing.T) {
			accepts := func(value string) bool {
				t.Helper()
				return accepted(t, key, value, context[key])
			}
			switch k := kinds[key]; k {
			case "bool":
				return
			case "list":
				// The example the comment gives is accepted, from a file
				// and from --set (comma-separated); a bare host is not.
				example := listExample.FindString(comment)
				if example == "" {
					t.Fatalf("comment %q gives no example list", comment)
				}
				var items []string
				if err := json.Unmarshal([]byte(example), &items); err != nil || len(items) == 0 {
					t.Fatalf("comment's example %s is not a list of strings: %v", example, err)
				}
				if !acceptedAs(t, key, example, strings.Join(items, ","), context[key]) {
					t.Errorf("the documented example %s is refused", example)
				}
				if acceptedAs(t, key, `["relay.example.org:3478"]`, "relay.example.org:3478", context[key]) {
					t.Errorf("a host without its scheme is accepted")
				}
				return
			case "enum":
				documented := quotedWords(comment)
				vocabulary := enumWords(t, key)
				if !slices.Equal(slices.Sorted(slices.Values(documented)), slices.Sorted(slices.Values(vocabulary))) {
					t.Errorf("documented words %q, the owner's words %q", documented, vocabulary)
				}
				for _, w := range vocabulary {
					want := !slices.Contains(needCode[key], w)
					if got := accepts(strconv.Quote(w)); got != want {
						t.Errorf("%q accepted = %v, want %v", w, got, want)
					}
				}
				return
			case "color":
				for _, form := range []string{`"#RRGGBB"`, `"#RRGGBBAA"`} {
					if !strings.Contains(comment, form) {
						t.Errorf("comment %q does not state the form %s", comment, form)
					}
				}
				for value, want := range map[string]bool{
					`"#a0B1c2"`: true, `"#a0b1c2d3"`: true, `"#FFFFFF00"`: true,
					`"#a0b1c"`: false, `"a0b1c2"`: false, `"#a0b1cg"`: false, `"#a0b1c2d"`: false, `"#+1b1c2"`: false, `""`: false,
				} {
					if got := accepts(value); got != want {
						t.Errorf("%s accepted = %v, want %v", value, got, want)
					}
				}
				return
			case "string":
				n := atMost(t, comment)
				// A key whose value starts with a scheme it documents
				// ("ws://HOST:PORT") is filled out after the scheme.
				scheme := schemePrefix.FindStringSubmatch(comment)
				prefix := ""
				if scheme != nil {
					prefix = scheme[1]
				}
				long := func(n int) string { return strconv.Quote(prefix + strings.Repeat("x", n-len(prefix))) }
				if !accepts(long(n)) || accepts(long(n+1)) {
					t.Errorf("documented at most %d bytes; the boundary does not hold", n)
				}
				return
			default:
				r, ok := documentedRange(comment, symbols)
				if !ok {
					t.Fatalf("comment %q states no range", comment)
				}
				lo, below := bound(t, k, r.lo, -1)
				if r.loOpen {
					if accepts(lo) {
						t.Errorf("lower bound %s is documented as excluded but accepted", lo)
					}
					if _, above := bound(t, k, r.lo, +1); !accepts(above) {
						t.Errorf("%s, just above the excluded lower bound, is refused", above)
					}
				} else {
					if !accepts(lo) {
						t.Errorf("documented lower bound %s is refused", lo)
					}
					if below != special[key] && accepts(below) {
						t.Errorf("%s, below the documented lower bound %s, is accepted", below, lo)
					}
				}
				if r.hi == "" {
					if big, _ := bound(t, k, "huge", 0); !accepts(big) {
						t.Errorf("documented as unbounded above, but %s is refused", big)
					}
					return
				}
				hi, above := bound(t, k, r.hi, +1)
				if !accepts(hi) {
					t.Errorf("documented upper bound %s is refused", hi)
				}
				if accepts(above) {
					t.Errorf("%s, above the documented upper bound %s, is accepted", above, hi)
				}
			}
		})
	}
}

// accepted reports whether key = value is accepted, from a file and from
// --set alike; the two paths must agree.
func accepted(t *testing.T, key, value string, context []string) bool {
	t.Helper()
	text := value
	if s, err := strconv.Unquote(value); err == nil {
		text = s
	}
	return acceptedAs(t, key, value, text, context)
}

// acceptedAs is accepted with the text --set takes for value.
func acceptedAs(t *testing.T, key, value, text string, context []string) bool {
	t.Helper()
	base := config.Default()
	for _, a := range context {
		if err := base.Set(a); err != nil {
			t.Fatalf("context %s: %v", a, err)
		}
	}
	_, fileErr := config.Parse("test.toml", []byte(asTOML(key, value)), base)
	c := base
	setErr := c.Set(key + "=" + text)
	if setErr == nil {
		setErr = c.Validate("")
	}
	if (fileErr == nil) != (setErr == nil) {
		t.Errorf("%s = %s: from a file %v, from --set %v; want the same verdict", key, value, fileErr, setErr)
	}
	return fileErr == nil
}

type docRange struct {
	lo, hi string // hi "" = no upper bound
	loOpen bool
}

var (
	aboveUpTo   = regexp.MustCompile(`above (\S+) up to (\S+)`)
	fromTo      = regexp.MustCompile(`(\S+) to (\S+)`)
	orMore      = regexp.MustCompile(`(\S+) or more`)
	atMostRe    = regexp.MustCompile(`at most (\d+) bytes`)
	listExample = regexp.MustCompile(`\[[^\]]*\]`)
	quoted      = regexp.MustCompile(`"([a-z-]+)"`)
	pairValue   = regexp.MustCompile(`^"\d+[x:]\d+"$`)
	colorValue  = regexp.MustCompile(`^"#[0-9a-f]{6}([0-9a-f]{2})?"$`)
)

func documentedRange(comment string, symbols map[string]string) (docRange, bool) {
	clean := func(s string) string {
		s = strings.TrimRight(s, ",;")
		if v, ok := symbols[s]; ok {
			return v
		}
		return s
	}
	if m := aboveUpTo.FindStringSubmatch(comment); m != nil {
		return docRange{lo: clean(m[1]), hi: clean(m[2]), loOpen: true}, true
	}
	if m := fromTo.FindStringSubmatch(comment); m != nil {
		return docRange{lo: clean(m[1]), hi: clean(m[2])}, true
	}
	if m := orMore.FindStringSubmatch(comment); m != nil {
		return docRange{lo: clean(m[1])}, true
	}
	return docRange{}, false
}

func atMost(t *testing.T, comment string) int {
	m := atMostRe.FindStringSubmatch(comment)
	if m == nil {
		t.Fatalf("comment %q states no length", comment)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func quotedWords(comment string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(comment, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// bound returns the documented value as TOML and its neighbour one step in
// direction dir (a nanosecond, one, the next float, a slower rate).
func bound(t *testing.T, kind, s string, dir int) (value, next string) {
	t.Helper()
	switch kind {
	case "int":
		if s == "huge" {
			return "1000000000", ""
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("bound %q: %v", s, err)
		}
		return strconv.FormatInt(n, 10), strconv.FormatInt(n+int64(dir), 10)
	case "float":
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("bound %q: %v", s, err)
		}
		n := math.Nextafter(f, math.Inf(dir))
		return strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(n, 'g', -1, 64)
	case "duration":
		if s == "huge" {
			return strconv.Quote(time.Duration(math.MaxInt64).String()), ""
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("bound %q: %v", s, err)
		}
		return strconv.Quote(d.String()), strconv.Quote((d + time.Duration(dir)).String())
	case "size", "ratio":
		// Both sides at the bound, and both one step past it.
		sep := map[string]string{"size": "x", "ratio": ":"}[kind]
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("bound %q: %v", s, err)
		}
		pair := func(n int) string { return strconv.Quote(fmt.Sprintf("%d%s%d", n, sep, n)) }
		return pair(n), pair(n + dir)
	case "rate":
		num, den, _ := strings.Cut(s, "/")
		n, err1 := strconv.ParseInt(num, 10, 64)
		d := int64(1)
		var err2 error
		if den != "" {
			d, err2 = strconv.ParseInt(den, 10, 64)
		}
		if err1 != nil || err2 != nil {
			t.Fatalf("bound %q is not a rate", s)
		}
		if dir < 0 { // a slower rate: one more in the denominator
			return strconv.Quote(fmt.Sprintf("%d/%d", n, d)), strconv.Quote(fmt.Sprintf("%d/%d", n, d+1))
		}
		return strconv.Quote(fmt.Sprintf("%d/%d", n, d)), strconv.Quote(fmt.Sprintf("%d/%d", n+d, d))
	}
	t.Fatalf("no bounds for kind %s", kind)
	return "", ""
}

// kindsOfKeys reads each key's kind from the printed defaults: how the
// value is written tells the kind apart.
func kindsOfKeys(t *testing.T) map[string]string {
	t.Helper()
	kinds := map[string]string{}
	c := config.Default()
	table := ""
	for _, line := range strings.Split(string(c.EffectiveTOML()), "\n") {
		line, _, _ = strings.Cut(line, " # ")
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(line, "[]")
			continue
		}
		name, value, ok := strings.Cut(line, " = ")
		if !ok {
			continue
		}
		key := table + "." + name
		switch {
		case key == "timing.rate":
			kinds[key] = "rate"
		case colorValue.MatchString(value):
			kinds[key] = "color"
		case pairValue.MatchString(value):
			kinds[key] = "size"
			if strings.Contains(value, ":") {
				kinds[key] = "ratio"
			}
		case strings.HasPrefix(value, "["):
			kinds[key] = "list"
		case value == "true" || value == "false":
			kinds[key] = "bool"
		case strings.HasPrefix(value, `"`):
			s, _ := strconv.Unquote(value)
			if _, err := time.ParseDuration(s); err == nil {
				kinds[key] = "duration"
			} else if enumWords(t, key) != nil {
				kinds[key] = "enum"
			} else {
				kinds[key] = "string"
			}
		case strings.Contains(value, "."):
			kinds[key] = "float"
		default:
			kinds[key] = "int"
		}
	}
	return kinds
}

// enumWords reads the allowed words of an enum key from the message for a
// word it does not know; nil for a key that is not an enum.
func enumWords(t *testing.T, key string) []string {
	t.Helper()
	_, err := config.Parse("probe.toml", []byte(asTOML(key, `"zzzz-not-a-word"`)), config.Default())
	var e *config.Error
	if err == nil || !errors.As(err, &e) || !strings.HasPrefix(e.Problem, "unknown value") {
		return nil
	}
	return quotedWords(e.Allowed)
}

// The error example in the package documentation is what Parse reports
// for the file shown there.
func TestDocExample(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]string
	var cur []string
	for _, line := range strings.Split(string(src), "\n") {
		if s, ok := strings.CutPrefix(line, "//\t"); ok {
			cur = append(cur, s)
			continue
		}
		if cur != nil {
			blocks = append(blocks, cur)
			cur = nil
		}
	}
	var file, want string
	for i, b := range blocks {
		if b[0] == "[timing]" && i+1 < len(blocks) {
			file, want = strings.Join(b, "\n")+"\n", strings.Join(blocks[i+1], "\n")
		}
	}
	if file == "" {
		t.Fatal("doc.go has no example file followed by its errors")
	}
	_, err = config.Parse("game.toml", []byte(file), config.Default())
	if err == nil || err.Error() != want {
		t.Errorf("doc.go shows\n%s\nbut Parse reports\n%v", want, err)
	}
}

// newestKeys are keys every listing for players must show (issue 17): the
// window's screen and resize keys, the worker pool and the [audio] table.
var newestKeys = []string{
	"window.clear_color", "window.logical_size", "window.scaling", "window.min_size", "window.max_size",
	"window.aspect_ratio", "window.fullscreen", "window.focus_policy",
	"runtime.workers", "runtime.settle_timeout", "runtime.background_workers",
	"audio.enabled", "audio.latency", "audio.tolerance", "audio.max_voices",
	"audio.master_volume", "audio.music_volume", "audio.effects_volume", "audio.ui_volume",
	"render.filter",
}

// rangePhrase finds the ways defaults.toml states a range: "1 to 64",
// "0 to max_fixed_updates", "one step to 1h", "above 0 up to 10", "0s or
// more", "at most 256 bytes", "N and D at most 1000000000".
var rangePhrase = regexp.MustCompile(`above [0-9][^\s,;)]* up to [0-9][^\s,;)]*|(?:[0-9][^\s,;)]*|one step) to (?:[0-9][^\s,;)]*|max_fixed_updates)|[0-9][^\s,;)]* or more|at most [0-9]+( bytes)?`)

func rangePhrases(comment string) []string {
	return slices.Sorted(slices.Values(rangePhrase.FindAllString(comment, -1)))
}

// The configuration files people read besides defaults.toml — the demo's
// config.toml at the repository's root, which lists every key, and the
// config.toml that cmd/newgame gives a new game, which lists the keys a
// game tunes — load, list the newest keys, and state for each key they
// list the range defaults.toml states (which TestDocumentedRanges checks
// at its bounds) and every word a file may give it.
func TestListingsMatchDefaults(t *testing.T) {
	root, err := os.ReadFile(filepath.Join("..", "..", "cmd", "demo", "internal", "demo", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := template.ParseFS(templates.FS, templates.Root+"/config.toml.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	var scaffold bytes.Buffer
	if err := tmpl.Execute(&scaffold, templates.Data{Title: "Test Game", Framework: "example.com/framework"}); err != nil {
		t.Fatal(err)
	}
	listings := []struct {
		name string
		doc  []byte
		want []string // keys it must list
	}{
		{"config.toml", root, config.Keys()},
		{"templates/game/config.toml.tmpl", scaffold.Bytes(), newestKeys},
	}
	defaults := keyComments(t)
	kinds := kindsOfKeys(t)
	known := map[string]bool{}
	for _, k := range config.Keys() {
		known[k] = true
	}
	for _, l := range listings {
		t.Run(l.name, func(t *testing.T) {
			if _, err := config.Parse(l.name, l.doc, config.Default()); err != nil {
				t.Fatalf("does not load: %v", err)
			}
			listed := commentsOf(l.doc)
			for _, k := range l.want {
				if _, ok := listed[k]; !ok {
					t.Errorf("%s is not listed", k)
				}
			}
			for key, comment := range listed {
				if !known[key] {
					if !strings.HasPrefix(key, "input.bindings.") {
						t.Errorf("%s is not a framework key", key)
					}
					continue
				}
				if got, want := rangePhrases(comment), rangePhrases(defaults[key]); !slices.Equal(got, want) {
					t.Errorf("%s: states the range %q, defaults.toml %q", key, got, want)
				}
				switch kinds[key] {
				case "enum":
					documented := quotedWords(comment)
					vocabulary := enumWords(t, key)
					for _, w := range vocabulary {
						if !slices.Contains(documented, w) && !slices.Contains(needCode[key], w) {
							t.Errorf("%s: the comment does not name %q", key, w)
						}
					}
				case "color":
					for _, form := range []string{`"#RRGGBB"`, `"#RRGGBBAA"`} {
						if !strings.Contains(comment, form) {
							t.Errorf("%s: the comment does not state the form %s", key, form)
						}
					}
				}
			}
		})
	}
}
