package inspect_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/inspect"
)

// post sends an API path as POST and decodes its JSON into v.
func post(t testing.TB, h http.Handler, path string, want int, v any) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", path, nil))
	if rec.Code != want {
		t.Fatalf("POST %s: status %d, want %d: %s", path, rec.Code, want, rec.Body)
	}
	if v != nil {
		decode(t, path, rec.Body.Bytes(), v)
	}
}

// The analysis endpoints answer as the framework's functions do over the
// same recordings.
func TestAnalysisAnswersAsTheFramework(t *testing.T) {
	path, _ := record(t)
	other, _ := recordPress(t, 700*time.Millisecond)
	rep := open(t, path, 50)
	h, err := inspect.NewHandler(rep, inspect.ServerOptions{Name: path, Analysis: framework.InspectAnalysis(testGame(), path, other)})
	if err != nil {
		t.Fatal(err)
	}
	var ents entityList
	get(t, h, "/api/entities?tick=10&component=mover", 200, &ents)
	if len(ents.Entities) != 1 {
		t.Fatalf("movers at tick 10: %+v", ents)
	}
	id, gen := ents.Entities[0].ID, ents.Entities[0].Gen

	var who inspect.WhoWroteAnswer
	get(t, h, "/api/who-wrote?id="+itoa(id)+"&gen="+itoa(gen)+"&path=mover.Bounces&from=5&until=400", 200, &who)
	want, err := framework.WhoWrote(testGame(), path, id, gen, "mover.Bounces", 5, 400)
	if err != nil {
		t.Fatal(err)
	}
	if len(who.Writes) != len(want.Writes) || len(want.Writes) == 0 || who.Ticks != want.Ticks {
		t.Fatalf("who-wrote: %+v, framework: %v", who, want)
	}
	for i, w := range want.Writes {
		g := who.Writes[i]
		if g.Tick != w.Tick || g.System != w.System || g.Stage != w.Stage.String() || g.Old != w.Old || g.New != w.New {
			t.Errorf("write %d: %+v, framework %+v", i, g, w)
		}
	}

	var where inspect.WhereAnswer
	get(t, h, "/api/where?expr="+esc("mover.Bounces >= 2"), 200, &where)
	wantWhere, err := framework.FirstWhere(testGame(), path, "mover.Bounces >= 2", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !where.Found || where.Tick != wantWhere.Tick || len(where.Matches) != 1 || where.Matches[0].ID != id ||
		strings.Join(where.Matches[0].Values, ",") != strings.Join(wantWhere.Matches[0].Values, ",") {
		t.Errorf("where: %+v, framework %v", where, wantWhere)
	}
	get(t, h, "/api/where?expr="+esc("mover.Nope > 1"), 400, nil)
	get(t, h, "/api/where?expr=", 400, nil)

	var cmp struct {
		A, B   string
		Answer inspect.CompareAnswer
	}
	get(t, h, "/api/compare", 200, &cmp)
	wantCmp, err := framework.Bisect(testGame(), path, other)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.B != other || cmp.Answer.Text != wantCmp.String() || cmp.Answer.Same || cmp.Answer.InputTick != wantCmp.InputTick || !cmp.Answer.InputDiffers {
		t.Errorf("compare: %+v, framework:\n%v", cmp, wantCmp)
	}

	dir := t.TempDir()
	t.Chdir(dir)
	get(t, h, "/api/write-test?file=bug_test.go&ticks=300&expect=x", 405, nil)
	post(t, h, "/api/write-test?file=../bug_test.go&ticks=300&expect="+esc("mover.Bounces >= 1"), 400, nil)
	var wrote inspect.WrittenTest
	post(t, h, "/api/write-test?file=bug_test.go&ticks=300&expect="+esc("mover.Bounces >= 1"), 200, &wrote)
	src, err := os.ReadFile(filepath.Join(dir, "bug_test.go"))
	if err != nil || !strings.Contains(string(src), wrote.Name) || !strings.Contains(string(src), "mover.Bounces >= 1") {
		t.Errorf("wrote %+v: %v\n%s", wrote, err, src)
	}
	if _, err := os.Stat(filepath.Join(dir, wrote.Recording)); err != nil {
		t.Errorf("the test's recording: %v", err)
	}
}

// Without the game's analysis the endpoints say so.
func TestAnalysisMissing(t *testing.T) {
	path, _ := record(t)
	h, err := inspect.NewHandler(open(t, path, 0), inspect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/who-wrote?id=1&path=mover.X", "/api/where?expr=mover.X>1", "/api/compare"} {
		get(t, h, p, 404, nil)
	}
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

func esc(s string) string { return url.QueryEscape(s) }

func decode(t testing.TB, path string, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v: %s", path, err, b)
	}
}
