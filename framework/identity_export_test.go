package framework

import (
	"io"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback"
)

// MatchIdentity is matchIdentity through the driver of a network g
// lists: the identity a match of g with cfg checks, with its warnings
// written to w.
func MatchIdentity(g Game, cfg config.Config, w io.Writer) (rollback.Identity, error) {
	d, err := g.Net.driver()
	if err != nil {
		return rollback.Identity{}, err
	}
	return matchIdentity(g, cfg, d, w)
}
