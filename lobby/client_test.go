package lobby_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/metronome-go/metronome/lobby"
)

// TestAResumeKeepsWhatCameBeforeItsWelcome: a lobby that sends a resumed
// client's events ahead of the resume's welcome (an older instance of the
// lobby did when a pairing and a peer's signal came during the resume)
// must not have them dropped: Next returns them after Resume, in order.
func TestAResumeKeepsWhatCameBeforeItsWelcome(t *testing.T) {
	id, secret, peer := lobby.NewID(), lobby.NewID(), lobby.NewID()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := r.Context()
		send := func(m lobby.Message) bool { return ws.Write(ctx, websocket.MessageText, m.Encode()) == nil }
		if !send(lobby.Message{Type: lobby.TypeWelcome, Client: lobby.NewID(), Secret: lobby.NewID()}) {
			return
		}
		if _, b, err := ws.Read(ctx); err != nil {
			return
		} else if m, err := lobby.DecodeRequest(b); err != nil || m.Type != lobby.TypeResume {
			t.Errorf("the lobby read %s (%v), want a resume", b, err)
			return
		}
		for _, m := range []lobby.Message{
			{Type: lobby.TypeRoom, Code: "KXR-4TQ", Seat: 0, Peers: []string{id, peer}, Players: 2, Game: "g"},
			{Type: lobby.TypeSignal, Peer: peer, Data: "offer"},
			{Type: lobby.TypeWelcome, Client: id, Secret: secret},
			{Type: lobby.TypeSignal, Peer: peer, Data: "after"},
		} {
			if !send(m) {
				return
			}
		}
		ws.Read(ctx) // until the client leaves
	}))
	defer ts.Close()
	ctx := t.Context()
	c, err := lobby.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Resume(ctx, id, secret); err != nil {
		t.Fatal(err)
	}
	if w := c.Welcome(); w.Client != id {
		t.Errorf("welcome %+v, want the resumed client %s", w, id)
	}
	var got []string
	for {
		m, err := c.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.Type+" "+m.Data)
		if m.Data == "after" {
			break
		}
	}
	if want := "room |signal offer|signal after"; strings.Join(got, "|") != want {
		t.Errorf("after the resume Next returned %q, want %q", strings.Join(got, "|"), want)
	}
}
