package framework_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
)

// The recording b of TestBisectFindsTheTickAndFields: the fire key is
// held from tick 64, so charge.Shots first counts at tick 70.
func chargingRecording(t *testing.T) string {
	t.Helper()
	b := filepath.Join(t.TempDir(), "b.rec")
	recordCharging(t, b, 64*time.Second/60+time.Millisecond)
	return b
}

func TestFirstWhere(t *testing.T) {
	b := chargingRecording(t)
	res, err := framework.FirstWhere(chargingGame(), b, "charge.Shots > 0 && charge.Ticks >= 10", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || res.Tick != 70 || len(res.Matches) != 1 || res.Matches[0].Values[0] != "1" || res.Matches[0].Values[1] != "71" {
		t.Fatalf("got %v; want the condition first true after tick 70, with Shots 1 and Ticks 71", res)
	}
	res, err = framework.FirstWhere(chargingGame(), b, "charge.Shots > 0", 60)
	if err != nil || res.Found || res.Ticks != 60 {
		t.Fatalf("replay until 60: got %v, %v; want 60 ticks replayed and no match", res, err)
	}
	if _, err := framework.FirstWhere(chargingGame(), b, "charge.Bullets > 0", 0); err == nil || !strings.Contains(err.Error(), "no field Bullets; its fields are Ticks, Shots") {
		t.Errorf("unknown field: got %v, want an error naming the fields", err)
	}
	if _, err := framework.FirstWhere(chargingGame(), b, "charge.Shots >", 0); err == nil || !strings.Contains(err.Error(), "at byte 14") {
		t.Errorf("syntax error: got %v, want its place", err)
	}

	var out, errOut bytes.Buffer
	if got := framework.MainStatus(chargingGame(), []string{"--replay", b, "--where", "charge.Shots >= 2"}, &out, &errOut); got != 0 {
		t.Fatalf("--where: status %d, stderr %q", got, errOut.String())
	}
	if s := out.String(); !strings.Contains(s, "holds first after tick 80 (replay with --replay-until 81 to stop there)") || !strings.Contains(s, "charge.Shots=2") {
		t.Errorf("--where printed %q", s)
	}
}

func TestWhoWrote(t *testing.T) {
	b := chargingRecording(t)
	res, err := framework.WhoWrote(chargingGame(), b, 1, 0, "charge.Shots", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := []framework.Write{
		{Tick: 70, Stage: ecs.Update, System: "charge", Old: "0", New: "1"},
		{Tick: 80, Stage: ecs.Update, System: "charge", Old: "1", New: "2"},
		{Tick: 90, Stage: ecs.Update, System: "charge", Old: "2", New: "3"},
	}
	if res.Ticks != 100 || len(res.Writes) != len(want) {
		t.Fatalf("got %v; want 100 ticks and writes %v", res, want)
	}
	for i := range want {
		if res.Writes[i] != want[i] {
			t.Errorf("write %d: got %+v, want %+v", i, res.Writes[i], want[i])
		}
	}
	res, err = framework.WhoWrote(chargingGame(), b, 1, 0, "charge.Shots", 85, 0)
	if err != nil || len(res.Writes) != 6 || res.Writes[0].Tick != 90 || res.Writes[0].Old != "2" {
		t.Errorf("from tick 85: got %v, %v; want 6 writes from tick 90 on, the first from 2", res, err)
	}
	if _, err := framework.WhoWrote(chargingGame(), b, 7, 0, "charge.Shots", 0, 10); err == nil || !strings.Contains(err.Error(), "no entity 7.0") {
		t.Errorf("an entity that never lived: got %v", err)
	}

	var out, errOut bytes.Buffer
	if got := framework.MainStatus(chargingGame(), []string{"--replay", b, "--replay-until", "75", "--who-wrote", "charge.Shots of entity(1.0)"}, &out, &errOut); got != 0 {
		t.Fatalf("--who-wrote: status %d, stderr %q", got, errOut.String())
	}
	if s := out.String(); !strings.Contains(s, `tick 70, system "charge" (Update): 0 -> 1`) {
		t.Errorf("--who-wrote printed %q", s)
	}
	errOut.Reset()
	if got := framework.MainStatus(chargingGame(), []string{"--replay", b, "--who-wrote", "charge.Shots"}, &out, &errOut); got != 1 || !strings.Contains(errOut.String(), "want 'FIELD of entity(ID.GEN)'") {
		t.Errorf("--who-wrote without an entity: status %d, stderr %q", got, errOut.String())
	}
	errOut.Reset()
	if got := framework.MainStatus(chargingGame(), []string{"--who-wrote", "charge.Shots of 1.0", "--where", "charge.Shots > 1"}, &out, &errOut); got != 2 ||
		!strings.Contains(errOut.String(), "go with --replay FILE") || !strings.Contains(errOut.String(), "give one") {
		t.Errorf("questions without --replay, two at once: status %d, stderr %q", got, errOut.String())
	}
}

// bughuntSource is a game package of its own, in a module that uses this
// one: the Ball falls 2 units a tick from y=100.
const bughuntSource = `package main

import (
	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/framework"
)

type Ball struct{ Y, VY float32 }

func newGame() framework.Game {
	return framework.Game{Title: "bughunt", Setup: func(s *framework.Setup) error {
		s.App.AddSystem(ecs.Startup, ecs.System{Name: "spawn", Run: func(ctx *ecs.Sys) {
			ecs.With(ctx.Commands.Spawn(), Ball{Y: 100, VY: 2})
		}})
		balls := ecs.NewFilter1[Ball](s.App.World())
		s.App.AddSystem(ecs.Update, ecs.System{Name: "fall", Run: func(ctx *ecs.Sys) {
			for q := balls.Query(); q.Next(); {
				b := q.Get()
				b.Y += b.VY
			}
		}})
		return nil
	}}
}

func main() { framework.Main(newGame()) }
`

// bughuntRecorder records 100 ticks of the game to $BUGHUNT_RECORD.
const bughuntRecorder = `package main

import (
	"os"
	"testing"

	"github.com/metronome-go/metronome/framework/frameworktest"
)

func TestRecord(t *testing.T) {
	sim, err := frameworktest.New(newGame(), frameworktest.Options{Record: os.Getenv("BUGHUNT_RECORD"), Sets: []string{"timing.mode=fixed", "timing.rate=60"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.RunTicks(100); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
}
`

// TestWriteTest is the whole path from a recording to a test: a game in
// a module of its own replays a recording with --write-test, and the
// test it wrote compiles and passes; the negated condition's test fails.
func TestWriteTest(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := "module example.com/bughunt\n\ngo 1.26\n\nrequire github.com/metronome-go/metronome v0.0.0\n\nreplace github.com/metronome-go/metronome => " + root + "\n"
	for name, data := range map[string][]byte{"go.mod": []byte(mod), "go.sum": sum, "main.go": []byte(bughuntSource), "record_test.go": []byte(bughuntRecorder)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := filepath.Join(t.TempDir(), "bug.rec")
	run := func(args ...string) (string, error) {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "BUGHUNT_RECORD="+rec)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("test", "-count=1", "-run", "TestRecord", "."); err != nil {
		t.Fatalf("recording the game: %v\n%s", err, out)
	}
	// The ball is at 100+2*50 = 200 after ticks 0 to 49.
	out, err := run("run", ".", "--replay", rec, "--replay-until", "50", "--expect", "Ball.Y == 200", "--write-test", "bug_test.go")
	if err != nil || !strings.Contains(out, "wrote bug_test.go (TestReplayBug50 replays testdata/bug.rec); it passes now") {
		t.Fatalf("--write-test: %v\n%s", err, out)
	}
	out, err = run("run", ".", "--replay", rec, "--replay-until", "50", "--expect", "!(Ball.Y == 200)", "--write-test", "negated_test.go")
	if err != nil || !strings.Contains(out, "wrote negated_test.go (TestReplayNegated50 replays testdata/bug.rec); it fails now") {
		t.Fatalf("--write-test, negated: %v\n%s", err, out)
	}
	if out, err := run("test", "-count=1", "-run", "TestReplayBug50", "."); err != nil {
		t.Errorf("the written test fails: %v\n%s", err, out)
	}
	out, err = run("test", "-count=1", "-run", "TestReplayNegated50", ".")
	if err == nil || !strings.Contains(out, "after tick 49 of testdata/bug.rec, no entity has !(Ball.Y == 200)") {
		t.Errorf("the negated test: %v, want it to fail naming the condition\n%s", err, out)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "bug_test.go"))
	t.Logf("bug_test.go:\n%s", src)
}
