// Command newgame scaffolds a Metronome game project that builds, runs and
// passes its own test on the first try.
//
//	go run ./cmd/newgame [-players N] [-module PATH] [-force] [-version vX.Y.Z | -replace DIR] DIR
//
// With -players 1 (the default) the game has one player who reads the
// keyboard directly. With -players 2 to 4 it is a networked game made for
// rollback: one seat of actions per player, a [game] settings table with
// ranges, and tests that play it headless, under a sync-test and as a
// match of real processes on the loopback.
//
// By default the new project's go.mod points at this checkout with a replace
// directive, so it builds offline before any release; -version selects a
// published framework version instead.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/metronome-go/metronome/templates"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, true))
}

// run is the whole command; tidy is false in tests that only check the files.
func run(args []string, stdout, stderr io.Writer, tidy bool) int {
	var c config
	fl := flag.NewFlagSet("newgame", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.StringVar(&c.Module, "module", "", "module path of the new game (default example.com/NAME, NAME derived from DIR)")
	fl.BoolVar(&c.Force, "force", false, "write into a directory that is not empty")
	fl.StringVar(&c.Version, "version", "", "require this published framework version instead of building against a checkout")
	fl.StringVar(&c.Replace, "replace", "", "framework checkout to build against (default: the checkout around the working directory)")
	fl.IntVar(&c.Players, "players", 1, fmt.Sprintf("players: 1 for a single-player game, 2 to %d for a networked game with rollback", templates.MaxPlayers))
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: newgame [-players N] [-module PATH] [-force] [-version vX.Y.Z | -replace DIR] DIR")
		fl.PrintDefaults()
	}
	// Accept flags before and after DIR.
	var rest []string
	for {
		if err := fl.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fl.NArg() == 0 {
			break
		}
		rest = append(rest, fl.Arg(0))
		args = fl.Args()[1:]
	}
	if len(rest) != 1 {
		fl.Usage()
		return 2
	}
	c.Dir = rest[0]
	if err := checkPlayers(c.Players); err != nil { // 0 here was asked for, not left out
		fmt.Fprintln(stderr, err)
		return 1
	}
	if c.Version != "" && c.Replace != "" {
		fmt.Fprintln(stderr, "newgame: -version and -replace exclude each other: use a published version or a checkout")
		return 2
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "newgame:", err)
		return 1
	}
	if err := generate(c, cwd); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if tidy {
		if err := modTidy(c.Dir); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "created %s\n\nnext:\n  cd %s\n", c.Dir, c.Dir)
	if c.Players > 1 {
		fmt.Fprintf(stdout, "  go run .                 # %d players at one keyboard (needs a display)\n  go run . --host :7777    # host a match; prints the command that joins it\n  go test ./...            # headless, sync-test and a match of real processes\n", c.Players)
	} else {
		fmt.Fprintf(stdout, "  go run .        # play (needs a display)\n  go test ./...   # the game's own headless test\n")
	}
	return 0
}

// generate renders the templates and writes them, refusing a non-empty
// directory unless forced. On any error nothing has been written.
func generate(c config, cwd string) error {
	data, err := resolve(c, cwd)
	if err != nil {
		return err
	}
	if !c.Force {
		if err := checkEmpty(c.Dir); err != nil {
			return err
		}
	}
	root := templates.Root
	if data.Players > 1 {
		root = templates.NetRoot
	} else if data.FixtureTicks, data.FixtureHash, err = fixtureInfo(templates.FS, templates.FixturePath); err != nil {
		return err
	}
	files, err := plan(templates.FS, templates.Common, data)
	if err != nil {
		return err
	}
	game, err := plan(templates.FS, root, data)
	if err != nil {
		return err
	}
	maps.Copy(files, game)
	return write(c.Dir, files)
}

// modTidy resolves the new module's dependencies and explains the usual
// reasons it fails.
func modTidy(dir string) error {
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	msg := strings.TrimSpace(string(out))
	hint := "check the output above"
	switch {
	case errors.Is(err, exec.ErrNotFound):
		hint = "the go command is not in PATH; install Go 1.26 and run 'go mod tidy' in " + dir
	case strings.Contains(msg, "dial tcp") || strings.Contains(msg, "lookup ") || strings.Contains(msg, "GOPROXY=off") || strings.Contains(msg, "module lookup disabled"):
		hint = "the module proxy could not be reached and the module cache lacks a dependency: connect and run 'go mod tidy' in " +
			dir + ", or fill the cache first by running 'go mod download' in the framework checkout"
	}
	abs, _ := filepath.Abs(dir)
	return fmt.Errorf("newgame: the project was written to %s, but 'go mod tidy' failed: %v\n%s\nhint: %s", abs, err, msg, hint)
}
