package lobby_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/lobby"
)

func TestParseCode(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"KXR-4TQ", "KXR-4TQ", ""},
		{"kxr4tq", "KXR-4TQ", ""},
		{" kxr 4tq ", "KXR-4TQ", ""},
		{"oil-abc", "011-ABC", ""}, // O reads as 0, I and L as 1
		{"KXR-4T", "", "has 5 symbols"},
		{"KXR-4TQQ", "", "has 7 symbols"},
		{"KXU-4TQ", "", "A-Z but U"},
		{"KXR_4TQ", "", "A-Z but U"},
		{strings.Repeat("A", 17), "", "is 17 bytes"},
	} {
		got, err := lobby.ParseCode(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseCode(%q) = %q, %v; want an error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseCode(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	seen := map[string]bool{}
	for range 1000 {
		c := lobby.NewCode()
		if p, err := lobby.ParseCode(c); err != nil || p != c {
			t.Fatalf("NewCode() = %q does not read back (%q, %v)", c, p, err)
		}
		seen[c] = true
	}
	if len(seen) < 999 {
		t.Errorf("1000 codes had %d distinct: not random enough", len(seen))
	}
}

func TestCredentialsMatchCoturnsScheme(t *testing.T) {
	// The password computed by openssl:
	//	echo -n "1800000000:alice" | openssl dgst -sha1 -hmac north-wind -binary | base64
	got := lobby.Credentials([]byte("north-wind"), "alice", time.Unix(1_800_000_000, 0), []string{"turn:127.0.0.1:3478"})
	if got.Username != "1800000000:alice" || got.Password != "R6z6rGeaBLmRaorIYOAAr4XLbwI=" || got.Expires != 1_800_000_000 {
		t.Errorf("Credentials = %+v", got)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	id := lobby.NewID()
	for _, m := range []lobby.Message{
		{Type: lobby.TypeCreate, Game: "duel@v1 players=2", Players: 2},
		{Type: lobby.TypeJoin, Game: "g", Code: "KXR-4TQ"},
		{Type: lobby.TypeReclaim, Game: "g", Code: "KXR-4TQ", Secret: id},
		{Type: lobby.TypeQuick, Game: "g", Players: 8},
		{Type: lobby.TypeDedicated, Game: "g", Players: 7},
		{Type: lobby.TypeLeave},
		{Type: lobby.TypeResume, Client: id, Secret: id},
		{Type: lobby.TypeSignal, Peer: id, Data: strings.Repeat("c", lobby.MaxData)},
	} {
		got, err := lobby.DecodeRequest(m.Encode())
		if err != nil || !bytes.Equal(got.Encode(), m.Encode()) {
			t.Errorf("%s: decoded %+v, %v", m.Type, got, err)
		}
		if _, err := lobby.DecodeEvent(m.Encode()); err == nil && m.Type != lobby.TypeSignal {
			t.Errorf("%s: accepted as an event", m.Type)
		}
	}
	for _, m := range []lobby.Message{
		{Type: lobby.TypeWelcome, Client: id, Secret: id, TURN: &lobby.TURN{URLs: []string{"turn:h:3478"}, Username: "1:x", Password: "p", Expires: 1}},
		{Type: lobby.TypeRoom, Code: "KXR-4TQ", Seat: 1, Peers: []string{id, ""}, Players: 2, Game: "g"},
		{Type: lobby.TypeWaiting, Game: "g", Players: 2},
		{Type: lobby.TypePeer, Peer: id, Seat: 3},
		{Type: lobby.TypeError, Reason: lobby.ReasonRoomFull, Detail: "full", Code: "KXR-4TQ"},
	} {
		got, err := lobby.DecodeEvent(m.Encode())
		if err != nil || !bytes.Equal(got.Encode(), m.Encode()) {
			t.Errorf("%s: decoded %+v, %v", m.Type, got, err)
		}
		if _, err := lobby.DecodeRequest(m.Encode()); err == nil {
			t.Errorf("%s: accepted as a request", m.Type)
		}
	}
}

func TestDecodeRefusals(t *testing.T) {
	for _, c := range []struct{ frame, want string }{
		{``, "EOF"},
		{`[]`, "cannot unmarshal"},
		{`{"type":"create","game":"g"}`, "field players is missing"},
		{`{"type":"create","game":"g\u0001","players":2}`, "byte 0x01"},
		{`{"type":"create","game":"` + strings.Repeat("g", 129) + `","players":2}`, "1 to 128 printable"},
		{`{"type":"join","game":"g","code":"KXR-4TQ","players":2}`, "players does not belong"},
		{`{"type":"dedicated","game":"g"}`, "field players is missing"},
		{`{"type":"dedicated","game":"g","players":8}`, "out of range for a dedicated host, whose room holds one seat more: 2 to 7 allowed"},
		{`{"type":"dedicated","game":"g","players":2,"code":"KXR-4TQ"}`, "code does not belong"},
		{`{"type":"signal","peer":"x","data":"d"}`, "peer must be 26 characters"},
		{`{"type":"signal","peer":"aaaaaaaaaaaaaaaaaaaaaaaaaa","data":"` + strings.Repeat("d", lobby.MaxData+1) + `"}`, "at most 6144 allowed"},
		{`{"type":"create","game":"g","players":2}` + strings.Repeat(" ", lobby.MaxFrame), "at most 8192 allowed"},
	} {
		_, err := lobby.DecodeRequest([]byte(c.frame))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeRequest(%.60q) = %v, want an error with %q", c.frame, err, c.want)
		}
	}
}

// FuzzDecode checks that no frame panics the decoders and that whatever
// they accept is within the protocol's limits and reads back the same.
func FuzzDecode(f *testing.F) {
	id := lobby.NewID()
	f.Add([]byte(`{"type":"create","game":"g","players":2}`))
	f.Add([]byte(`{"type":"signal","peer":"` + id + `","data":"offer"}`))
	f.Add(lobby.Message{Type: lobby.TypeRoom, Code: "KXR-4TQ", Seat: 1, Peers: []string{id, ""}, Players: 2, Game: "g"}.Encode())
	f.Add(lobby.Message{Type: lobby.TypeWelcome, Client: id, Secret: id, TURN: &lobby.TURN{URLs: []string{"turn:h"}}}.Encode())
	f.Add([]byte(`{"type":"join","game":"g","code":"kxr 4tq"}`))
	f.Add([]byte(`{"type":"dedicated","game":"g","players":2}`))
	f.Add([]byte(`{"type":"dedicated","game":"g","players":8}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, decode := range []func([]byte) (lobby.Message, error){lobby.DecodeRequest, lobby.DecodeEvent} {
			m, err := decode(b)
			if err != nil {
				continue
			}
			e := m.Encode()
			if len(e) > lobby.MaxFrame+1024 {
				t.Fatalf("an accepted message encodes to %d bytes", len(e))
			}
			again, err := decode(e)
			if err != nil {
				t.Fatalf("%s re-encoded is refused: %v", e, err)
			}
			if !bytes.Equal(again.Encode(), e) {
				t.Fatalf("%s reads back as %s", e, again.Encode())
			}
		}
	})
}
