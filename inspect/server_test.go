package inspect_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/inspect"
)

// get fetches an API path from h and decodes its JSON into v, failing
// unless the status is want.
func get(t testing.TB, h http.Handler, path string, want int, v any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if rec.Code != want {
		t.Fatalf("GET %s: status %d, want %d: %s", path, rec.Code, want, rec.Body)
	}
	if v != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
			t.Fatalf("GET %s: %v: %s", path, err, rec.Body)
		}
	}
}

type entityList struct {
	Entities []struct {
		Entity     string
		ID, Gen    uint32
		Components []string
	}
}

type entityView struct {
	Tick       uint64
	Components []struct {
		Type         string
		Presentation bool
		Value        map[string]any
	}
}

// The API's answers, checked against what the recorded session held at
// each tick.
func TestAPIAnswersAsTheRecording(t *testing.T) {
	path, xs := record(t)
	rep := open(t, path, 50)
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: "test.rec"})
	if err != nil {
		t.Fatal(err)
	}

	var sess struct {
		Ticks      int
		Components []string
		Markers    int
		Memory     inspect.Memory
	}
	get(t, h, "/api/session", 200, &sess)
	if sess.Ticks != testTicks || sess.Markers == 0 || sess.Memory.Keyframes != testTicks/50 {
		t.Errorf("session: %+v", sess)
	}

	var before, after entityList
	get(t, h, "/api/entities?tick=99&component=late", 200, &before)
	get(t, h, "/api/entities?tick=100&component=late", 200, &after)
	if len(before.Entities) != 0 || len(after.Entities) != 1 {
		t.Fatalf("entities with late: %d at tick 99, %d at tick 100; want 0 and 1", len(before.Entities), len(after.Entities))
	}
	var movers entityList
	get(t, h, "/api/entities?component=inspect_test.mover", 200, &movers)
	if len(movers.Entities) != 1 {
		t.Fatalf("movers: %+v", movers)
	}
	m := movers.Entities[0]

	for _, tick := range []uint64{599, 7, 321, 120, 0} {
		var e entityView
		get(t, h, fmt.Sprintf("/api/entity?tick=%d&id=%d&gen=%d", tick, m.ID, m.Gen), 200, &e)
		if e.Tick != tick || len(e.Components) != 2 {
			t.Fatalf("entity at %d: %+v", tick, e)
		}
		g, mv := e.Components[0], e.Components[1]
		if g.Type != "inspect_test.glow" || !g.Presentation || mv.Type != "inspect_test.mover" || mv.Presentation {
			t.Errorf("entity at %d: components %+v", tick, e.Components)
		}
		if got := float32(mv.Value["X"].(float64)); got != xs[tick] {
			t.Errorf("mover.X at tick %d: got %v, want %v", tick, got, xs[tick])
		}
		if _, ok := mv.Value["dir"]; !ok {
			t.Errorf("mover at %d: unexported field dir missing: %v", tick, mv.Value)
		}
	}

	var series struct {
		Samples []struct {
			Tick  uint64
			Value float64
		}
	}
	get(t, h, fmt.Sprintf("/api/field?id=%d&gen=%d&path=mover.X&from=90&to=160", m.ID, m.Gen), 200, &series)
	if len(series.Samples) != 71 {
		t.Fatalf("field samples: %d, want 71", len(series.Samples))
	}
	for _, s := range series.Samples {
		if float32(s.Value) != xs[s.Tick] {
			t.Errorf("field mover.X at %d: got %v, want %v", s.Tick, s.Value, xs[s.Tick])
		}
	}

	var in struct {
		Actions []struct {
			Action string
			Down   bool
		}
	}
	for tick, down := range map[uint64]bool{10: false, 60: true, 200: false} {
		get(t, h, fmt.Sprintf("/api/input?tick=%d", tick), 200, &in)
		if len(in.Actions) != 1 || in.Actions[0].Action != "right" || in.Actions[0].Down != down {
			t.Errorf("input at %d: %+v, want right down=%t", tick, in.Actions, down)
		}
	}

	var tl struct{ Ticks []inspect.Tick }
	get(t, h, "/api/timeline?from=10&to=20", 200, &tl)
	if len(tl.Ticks) != 10 || tl.Ticks[0].Number != 10 {
		t.Errorf("timeline: %+v", tl.Ticks)
	}
	var res struct{ Resources []struct{ Type string } }
	get(t, h, "/api/resources?tick=5", 200, &res)
	if len(res.Resources) == 0 {
		t.Error("no resources")
	}

	var frame struct {
		Width, Height int
		Quads         []struct {
			P [8]float32
			C [4]float32
		}
	}
	get(t, h, "/api/frame?tick=30", 200, &frame)
	if frame.Width <= 0 || frame.Height <= 0 || len(frame.Quads) != 1 {
		t.Fatalf("frame: %+v, want one quad on a window", frame)
	}
	if q := frame.Quads[0]; q.P != [8]float32{50, 60, 60, 60, 60, 80, 50, 80} || q.C != [4]float32{1, 0, 0, 1} {
		t.Errorf("the box's quad: %v tint %v, want at 50,60 10 by 20, red", q.P, q.C)
	}

	for _, c := range []struct {
		path, want string
		status     int
	}{
		{"/api/seek?tick=600", "tick=\"600\": want a whole number from 0 to 599", 400},
		{"/api/seek?tick=-1", "want a whole number", 400},
		{"/api/entity?tick=5", "parameter id is missing", 400},
		{"/api/entity?tick=5&id=9999", "no entity with id 9999", 404},
		{fmt.Sprintf("/api/field?id=%d&gen=%d&path=mover.Y", m.ID, m.Gen), "has no field \"Y\": it has X, Speed, Bounces, dir", 400},
		{fmt.Sprintf("/api/field?id=%d&gen=%d&path=", m.ID, m.Gen), "want Component.Field", 400},
		{"/api/timeline?from=20&to=10", "from=20 is after to=10", 400},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		var e struct{ Error string }
		_ = json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != c.status || !strings.Contains(e.Error, c.want) {
			t.Errorf("GET %s: %d %s, want %d and %q", c.path, rec.Code, rec.Body, c.status, c.want)
		}
	}
}

func TestAPITokenAndLoopback(t *testing.T) {
	path, _ := record(t)
	rep := open(t, path, 0)
	if _, err := inspect.Listen(rep, "192.0.2.1:0", inspect.ServerOptions{}); err == nil || !strings.Contains(err.Error(), "--inspect-remote") {
		t.Fatalf("Listen beyond loopback without Remote: %v", err)
	}
	srv, err := inspect.Listen(rep, ":0", inspect.ServerOptions{Token: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	if u.Query().Get("token") != "s3cret" || !strings.HasPrefix(u.Host, "127.0.0.1:") {
		t.Errorf("URL %s: want loopback and the token", srv.URL())
	}
	for target, want := range map[string]int{
		"http://" + u.Host + "/api/session":              403,
		"http://" + u.Host + "/api/session?token=wrong":  403,
		"http://" + u.Host + "/api/session?token=s3cret": 200,
		"http://" + u.Host + "/index.html?token=s3cret":  200,
		"http://" + u.Host + "/api/nothing?token=s3cret": 404,
	} {
		resp, err := http.Get(target)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", target, resp.StatusCode, want)
		}
	}
}

// FuzzAPIQuery: no query string makes the API panic or answer other than
// 200, 400 or 404, and every answer is JSON.
func FuzzAPIQuery(f *testing.F) {
	path, _ := record(f)
	rep := open(f, path, 100)
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Analysis: framework.InspectAnalysis(testGame(), path, path)})
	if err != nil {
		f.Fatal(err)
	}
	endpoints := []string{"session", "timeline", "seek", "entities", "entity", "resources", "input", "field", "who-wrote", "where", "compare"}
	for _, s := range []struct {
		e uint8
		q string
	}{{1, "from=3&to=9"}, {2, "tick=5"}, {3, "component=mover"}, {4, "id=1&gen=0"}, {5, "tick=1"}, {6, "tick=2"},
		{7, "id=1&gen=0&path=mover.X&from=0&to=20"}, {7, "id=1&path=mover.[3]"}, {4, "id=4294967296"}, {7, "id=1&path=mover.X[2"},
		{8, "id=1&gen=0&path=mover.Bounces&from=3&until=50"}, {8, "id=1&path=mover&until=2"}, {9, "expr=mover.X+%3E+10&until=90"},
		{9, "expr=(((mover.X"}, {9, "expr=late.Born+%3D%3D+1e999"}, {10, ""}} {
		f.Add(s.e, s.q)
	}
	f.Fuzz(func(t *testing.T, e uint8, q string) {
		req := httptest.NewRequest("GET", "/api/session", nil)
		req.URL.Path = "/api/" + endpoints[int(e)%len(endpoints)]
		req.URL.RawQuery = q
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case 200, 400, 404:
		default:
			t.Fatalf("%s: status %d: %s", q, rec.Code, rec.Body)
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s: not JSON: %s", q, rec.Body)
		}
	})
}
