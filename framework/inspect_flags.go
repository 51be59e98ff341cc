package framework

import (
	"errors"
	"flag"
)

// The --inspect flags are parsed on every platform, so a page asked to
// inspect says why it cannot rather than calling the flag unknown.

func (f *Flags) registerInspect(fs *flag.FlagSet) {
	fs.StringVar(&f.Inspect, "inspect", "", "with --replay: serve the time-travel inspector's page and JSON API on this `address` (such as localhost:7777 or :7777, which listens on loopback only) until stopped")
	fs.BoolVar(&f.InspectRemote, "inspect-remote", false, "with --inspect: listen on the address as given, beyond loopback, and require the access token printed at start")
}

func (f *Flags) validateInspect() error {
	if f.Inspect != "" && f.Replay == "" {
		return errors.New("framework: --inspect goes with --replay FILE: the inspector opens a recording (go run . --replay game.rec --inspect :7777)")
	}
	if f.InspectRemote && f.Inspect == "" {
		return errors.New("framework: --inspect-remote goes with --inspect ADDR")
	}
	if f.Inspect != "" && (f.Window || f.ReplayUntil > 0) {
		return errors.New("framework: --inspect replays the whole recording headless: leave out --window and --replay-until")
	}
	return nil
}
