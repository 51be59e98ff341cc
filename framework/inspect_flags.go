package framework

import (
	"errors"
	"flag"
)

// The --inspect flags are parsed on every platform, so a page asked to
// inspect says why it cannot rather than calling the flag unknown.

func (f *Flags) registerInspect(fs *flag.FlagSet) {
	fs.StringVar(&f.Inspect, "inspect", "", "serve the time-travel inspector's page and JSON API on this `address` (such as localhost:7777 or :7777, which listens on loopback only): of the game as it plays (of a match, its confirmed ticks, trailing the match by the rollback window), or with --replay of a recording; it serves until stopped")
	fs.BoolVar(&f.InspectRemote, "inspect-remote", false, "with --inspect: listen on the address as given, beyond loopback, and require the access token printed at start")
}

func (f *Flags) validateInspect() error {
	if f.InspectRemote && f.Inspect == "" {
		return errors.New("framework: --inspect-remote goes with --inspect ADDR")
	}
	if f.Inspect != "" && f.Replay != "" && (f.Window || f.ReplayUntil > 0) {
		return errors.New("framework: --inspect replays the whole recording headless: leave out --window and --replay-until")
	}
	if f.Inspect != "" && f.Replay == "" && f.Compare != "" {
		return errors.New("framework: --compare goes with --replay FILE, also with --inspect")
	}
	return nil
}
