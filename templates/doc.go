// Package templates holds the files cmd/newgame renders into a new game
// project, embedded so the command works from any directory.
//
// Every file under game/ is a text/template, except recordings (".rec"),
// which are copied with the new module's path in their header. A name
// ending in ".tmpl" loses that suffix when written; "gitignore.tmpl"
// becomes ".gitignore" (embed leaves dot files out of a plain pattern).
// Templates see a [Data] value.
package templates

import "embed"

// FS is the game project template tree, rooted at "game".
//
//go:embed all:game
var FS embed.FS

// Root is the directory inside [FS] that holds the project files.
const Root = "game"

// Data is what every template sees.
type Data struct {
	// Module is the new project's module path, such as "example.com/mygame".
	Module string
	// Name is a lower-case identifier for the game, such as "mygame".
	Name string
	// Title is the human-readable name shown in the window title and README.
	Title string
	// Framework is the framework's module path.
	Framework string
	// FrameworkVersion is the required version: a release tag, or
	// v0.0.0-00010101000000-000000000000 when Replace points at a checkout.
	FrameworkVersion string
	// Replace is the checkout the project builds against ("" when a
	// published version is used).
	Replace string
	// GoVersion is the go directive of the new module.
	GoVersion string
	// FixtureTicks and FixtureHash describe the recording the project's
	// test replays (testdata/session.rec): how many ticks it holds and the
	// world hash after the last one.
	FixtureTicks uint64
	FixtureHash  uint64
}

// FixturePath is the recording the generated test replays, inside [FS].
const FixturePath = "game/testdata/session.rec"
