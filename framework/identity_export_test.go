package framework

import (
	"io"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// MatchIdentity is matchIdentity: the identity a match of g with cfg
// checks, with its warnings written to w.
func MatchIdentity(g Game, cfg config.Config, w io.Writer) (netplay.Identity, error) {
	return matchIdentity(g, cfg, w)
}
