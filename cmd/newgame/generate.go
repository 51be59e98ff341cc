package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/template"
	"unicode"

	"golang.org/x/mod/module"

	"github.com/metronome-go/metronome/templates"
)

// frameworkModule is the module path of this checkout.
const frameworkModule = "github.com/metronome-go/metronome"

// develVersion is the version go.mod requires when a replace directive
// points at a checkout: any version works, and this one says "no release".
const develVersion = "v0.0.0-00010101000000-000000000000"

// ErrNotEmpty reports a target directory that already holds files.
var ErrNotEmpty = errors.New("newgame: target directory is not empty")

// config is what the command was asked to do.
type config struct {
	Dir       string // target directory
	Module    string // module path; derived from Dir when empty
	Force     bool   // write into a non-empty directory
	Version   string // published framework version; "" builds against Replace
	Replace   string // framework checkout; found from the working directory when empty
	GoVersion string
	Players   int // 1 for the single-player template (0 means 1), 2 to templates.MaxPlayers for the networked one
}

// plan renders every template in memory. Nothing is written until every
// file has rendered, formatted and passed the path check.
func plan(fsys fs.FS, root string, data templates.Data) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, root+"/")
		name, err := outputName(rel, data)
		if err != nil {
			return err
		}
		if strings.HasSuffix(rel, ".rec") {
			out, _, _, err := rewriteRecording(src, rel, data.Module, data.Title)
			if err != nil {
				return err
			}
			files[name] = out
			return nil
		}
		t, err := template.New(rel).Option("missingkey=error").Parse(string(src))
		if err != nil {
			return fmt.Errorf("newgame: template %s: %w", rel, err)
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, data); err != nil {
			return fmt.Errorf("newgame: template %s: %w", rel, err)
		}
		out := buf.Bytes()
		if strings.HasSuffix(name, ".go") {
			if out, err = format.Source(out); err != nil {
				return fmt.Errorf("newgame: template %s does not render valid Go: %w", rel, err)
			}
		}
		files[name] = out
		return nil
	})
	return files, err
}

// outputName turns a template path into the path it is written to, rendering
// any template actions in the name, and refuses one that would leave the
// target directory.
func outputName(rel string, data templates.Data) (string, error) {
	t, err := template.New("name").Option("missingkey=error").Parse(rel)
	if err != nil {
		return "", fmt.Errorf("newgame: template name %q: %w", rel, err)
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("newgame: template name %q: %w", rel, err)
	}
	name := strings.TrimSuffix(b.String(), ".tmpl")
	dir, base := path.Split(name)
	if base == "gitignore" {
		name = dir + ".gitignore"
	}
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return "", fmt.Errorf("newgame: template %q would write %q, outside the target directory", rel, name)
	}
	return path.Clean(name), nil
}

// checkEmpty refuses a directory that holds anything but .git.
func checkEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("newgame: reading %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != ".git" {
			names = append(names, e.Name())
		}
	}
	if len(names) > 0 {
		if len(names) > 3 {
			names = append(names[:3], "...")
		}
		return fmt.Errorf("%w: %s holds %s (use --force to write into it anyway)", ErrNotEmpty, dir, strings.Join(names, ", "))
	}
	return nil
}

// write creates the directory and every planned file.
func write(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("newgame: %w", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("newgame: %w", err)
		}
	}
	return nil
}

// gameName derives a lower-case identifier and a title from a directory:
// "my-space game" gives "myspacegame" and "My Space Game".
func gameName(dir string) (name, title string, err error) {
	base := filepath.Base(filepath.Clean(dir))
	var words []string
	for _, w := range strings.FieldsFunc(base, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		words = append(words, w)
	}
	var id strings.Builder
	for _, w := range words {
		for _, r := range strings.ToLower(w) {
			if r < unicode.MaxASCII {
				id.WriteRune(r)
			}
		}
	}
	name = id.String()
	for len(name) > 0 && name[0] >= '0' && name[0] <= '9' {
		name = name[1:]
	}
	if name == "" {
		return "", "", fmt.Errorf("newgame: cannot derive a game name from directory %q: it needs at least one ASCII letter", base)
	}
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return name, strings.Join(words, " "), nil
}

// findCheckout walks up from dir to the go.mod of this framework.
func findCheckout(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && modulePath(data) == frameworkModule {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("newgame: no %s checkout above the working directory; run newgame from the framework checkout, pass -replace DIR, or pass -version vX.Y.Z to use a published release", frameworkModule)
		}
		dir = parent
	}
}

func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// checkPlayers states the range of --players.
func checkPlayers(n int) error {
	if n < 1 || n > templates.MaxPlayers {
		return fmt.Errorf("newgame: --players %d: want 1 (a single-player game) to %d (a networked game of that many players)", n, templates.MaxPlayers)
	}
	return nil
}

// resolve fills in the defaults and validates the configuration.
func resolve(c config, cwd string) (templates.Data, error) {
	name, title, err := gameName(c.Dir)
	if err != nil {
		return templates.Data{}, err
	}
	mod := c.Module
	if mod == "" {
		mod = "example.com/" + name
	}
	if err := module.CheckPath(mod); err != nil {
		return templates.Data{}, fmt.Errorf("newgame: invalid module path %q: %v (a module path looks like example.com/mygame or github.com/you/mygame)", mod, errors.Unwrap(err))
	}
	players := c.Players
	if players == 0 {
		players = 1
	}
	if err := checkPlayers(players); err != nil {
		return templates.Data{}, err
	}
	data := templates.Data{
		Module:    mod,
		Name:      name,
		Title:     title,
		Framework: frameworkModule,
		GoVersion: c.GoVersion,
		Players:   players,
	}
	if players > 1 {
		data.Seats = templates.Seats(players)
	}
	if data.GoVersion == "" {
		data.GoVersion = "1.26"
	}
	if c.Version != "" {
		if !strings.HasPrefix(c.Version, "v") {
			return templates.Data{}, fmt.Errorf("newgame: -version %q: a module version starts with v, such as v0.1.0", c.Version)
		}
		data.FrameworkVersion = c.Version
		return data, nil
	}
	replace := c.Replace
	if replace == "" {
		if replace, err = findCheckout(cwd); err != nil {
			return templates.Data{}, err
		}
	}
	if replace, err = filepath.Abs(replace); err != nil {
		return templates.Data{}, err
	}
	if data, err := os.ReadFile(filepath.Join(replace, "go.mod")); err != nil || modulePath(data) != frameworkModule {
		return templates.Data{}, fmt.Errorf("newgame: -replace %s is not a %s checkout (no go.mod declaring that module)", replace, frameworkModule)
	}
	data.Replace = filepath.ToSlash(replace)
	data.FrameworkVersion = develVersion
	return data, nil
}
