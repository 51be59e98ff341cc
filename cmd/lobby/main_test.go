package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/lobby"
)

func noEnv(string) string { return "" }

func TestBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--cert", "c.pem"}, "--cert and --key go together"},
		{[]string{"--turn", "turn:127.0.0.1:3478"}, "--turn needs the TURN secret"},
		{[]string{"--turn-secret-file", filepath.Join(dir, "none")}, "--turn-secret-file"},
		{[]string{"--nats", "nats://127.0.0.1:1", "--nats-listen", "127.0.0.1:0"}, "for the embedded NATS server"},
		{[]string{"--room-ttl", "-1s"}, "Options.RoomTTL"},
		{[]string{"stray"}, "every setting is a flag"},
	} {
		var out, errs strings.Builder
		if code := run(context.Background(), c.args, noEnv, &out, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("run %q = %d, %q; want 2 and %q", c.args, code, errs.String(), c.want)
		}
	}
}

// TestServesAndStops runs the command with the embedded NATS server, plays
// a room through it and stops it as SIGINT would. The TURN secret comes
// from a file and appears in no output.
func TestServesAndStops(t *testing.T) {
	const secret = "a-secret-coturn-shares"
	file := filepath.Join(t.TempDir(), "turn-secret")
	if err := os.WriteFile(file, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context() // bounded by the test binary's -timeout: waits on progress
	runCtx, stop := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	var errs strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- run(runCtx, []string{"--addr", "127.0.0.1:0", "--turn", "turn:127.0.0.1:3478", "--turn-secret-file", file}, noEnv, pw, &errs)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	if !lines.Scan() {
		t.Fatalf("no output; stderr: %s", errs.String())
	}
	first := lines.Text()
	url := regexp.MustCompile(`ws://[0-9.:]+`).FindString(first)
	if url == "" || strings.Contains(first, secret) {
		t.Fatalf("first line %q: want the address and not the secret", first)
	}
	c, err := lobby.Dial(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if tc := c.Welcome().TURN; tc == nil || tc.Password == "" || strings.Contains(string(c.Welcome().Encode()), secret) {
		t.Errorf("welcome %s: want credentials and not the secret", c.Welcome().Encode())
	}
	if _, err := c.Create(ctx, "game", 2); err != nil {
		t.Fatal(err)
	}
	stop()
	var rest strings.Builder
	for lines.Scan() {
		rest.WriteString(lines.Text() + "\n")
	}
	if code := <-done; code != 0 || !strings.Contains(rest.String(), "lobby: stopped") {
		t.Errorf("run ended with %d, output %q, stderr %q", code, rest.String(), errs.String())
	}
	if strings.Contains(errs.String(), secret) {
		t.Error("stderr shows the TURN secret")
	}
}
