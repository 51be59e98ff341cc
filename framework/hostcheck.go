package framework

import "errors"

// errPageHost refuses --host in a web page. Go's js/wasm network is an
// in-memory stand-in (a browser gives a page no socket to listen on), so
// a page that "hosts" would wait for players who can never reach it.
var errPageHost = errors.New("framework: --host in a web page: a page cannot host a match, " +
	"because a browser gives it no socket to listen on. " +
	"Host from the desktop build instead; a lobby that lets a page host a room is to come, " +
	"and so is joining a desktop host from a page over WebRTC")

// validateHost refuses what a platform cannot serve: hosting (--host,
// --dedicated) when inPage, the browser build.
func (f *Flags) validateHost(inPage bool) error {
	if inPage && (f.Host != "" || f.Dedicated) {
		return errPageHost
	}
	return nil
}
