package lobbyload_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/metronome-go/metronome/lobby/lobbyload"
)

// TestMain makes the test binary a worker of a run when its parent asks
// (workerEnv), as cmd/lobbyload does with --worker.
func TestMain(m *testing.M) {
	switch os.Getenv(workerEnv) {
	case "silent": // a worker whose clients never move
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "1":
		if err := lobbyload.Child(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const workerEnv = "LOBBYLOAD_TEST_WORKER"

// self runs this test binary again. Under emulation (the cross step runs
// the arm64 tests with -exec qemu-aarch64-static, no binfmt registered)
// the kernel cannot run the binary itself, so the step names the
// emulator in METRONOME_TEST_EXEC and the child goes through it too.
func self() *exec.Cmd {
	if emu := os.Getenv("METRONOME_TEST_EXEC"); emu != "" {
		return exec.Command(emu, os.Args[0])
	}
	return exec.Command(os.Args[0])
}

// worker starts this test binary as a worker process.
func worker() *exec.Cmd {
	cmd := self()
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return cmd
}

// TestAStalledRunFailsFast: a run whose clients stop moving ends after
// Options.Stall, not at its Timeout, and says what was not done.
func TestAStalledRunFailsFast(t *testing.T) {
	silent := func() *exec.Cmd {
		cmd := self()
		cmd.Env = append(os.Environ(), workerEnv+"=silent")
		return cmd
	}
	r, err := lobbyload.Run(t.Context(), lobbyload.Options{Clients: 10, Instances: 1, NATSNodes: 1, Workers: 1, Command: silent,
		Stall: time.Second, Timeout: 10 * time.Minute, Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "no client made progress") {
		t.Errorf("a run whose clients never moved: %v, want the stall named", err)
	}
	if r.Paired != 0 || r.Stuck["waiting"] != 10 {
		t.Errorf("%v: want 10 clients unpaired", r)
	}
}

// check runs o, bounded by its clients' progress (a run in which no
// client moves for 20 s fails with what was left undone) and by the test
// binary's -timeout, and wants every client paired with its peer in one
// room and every signal heard.
func check(t *testing.T, name string, o lobbyload.Options) lobbyload.Result {
	t.Helper()
	o.Dir = t.TempDir()
	o.Stall = 20 * time.Second
	o.Timeout = 10 * time.Minute
	if d, ok := t.Deadline(); ok {
		o.Timeout = time.Until(d) - 10*time.Second
	}
	r, err := lobbyload.Run(t.Context(), o)
	t.Logf("%s: %v", name, r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Paired != o.Clients || r.Lost != 0 || r.Split != 0 || r.Stray != 0 {
		t.Errorf("%s: %d of %d paired, %d lost, %d split, %d stray: want all paired, none lost, split or stray", name, r.Paired, o.Clients, r.Lost, r.Split, r.Stray)
	}
	return r
}

func TestPairsOnOneInstance(t *testing.T) {
	check(t, "one instance, embedded NATS", lobbyload.Options{Clients: 100, Instances: 1, NATSNodes: 1})
}

// TestPairsFromWorkerProcesses: the clients run in two child processes
// (this test binary again) and report to the run over pipes.
func TestPairsFromWorkerProcesses(t *testing.T) {
	check(t, "two instances, clients in two workers", lobbyload.Options{Clients: 100, Instances: 2, NATSNodes: 1, Workers: 2, Command: worker})
}

// TestAnInstanceDiesMidRun: the clients of the killed instance resume on
// the others and every client is still paired and hears its peer. At
// most 16 clients are between dialling and paired at once, so that the
// instance dies holding clients the store has as waiting or paired, whose
// resumes take their place over: with the default 256, all 300 enter
// before the first pairing is stored, and every resume starts afresh.
func TestAnInstanceDiesMidRun(t *testing.T) {
	r := check(t, "three instances, instance 0 killed", lobbyload.Options{Clients: 300, Instances: 3, NATSNodes: 3, KillAt: 150, Parallel: 16})
	if r.Resumed == 0 {
		t.Error("no client resumed: the kill came too late to matter")
	}
	if r.Resumed == r.Afresh {
		t.Error("every resume started afresh: the kill came before the store held any of the instance's clients")
	}
}

// TestANATSServerStopsMidRun: one of three NATS servers stops; the
// instances connected to it fail over to the others, the bucket (kept
// three times) loses nothing, and every client is paired and hears its
// peer.
func TestANATSServerStopsMidRun(t *testing.T) {
	check(t, "three instances, NATS server 2 stopped", lobbyload.Options{Clients: 300, Instances: 3, NATSNodes: 3, StopNATSAt: 150})
}
