package lobbyload

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/metronome-go/metronome/lobby"
)

// spec is the first line a parent writes to a child: which clients it
// runs and against which instances.
type spec struct {
	URLs     []string      `json:"urls"`
	From     int           `json:"from"`
	To       int           `json:"to"`
	Parallel int           `json:"parallel"`
	Timeout  time.Duration `json:"timeout"`
}

// perChild bounds the clients one child process holds (a socket each).
const perChild = 5000

// Child runs the share of a run's clients its parent gives it on in,
// reporting each step and then each client's outcome on out, one line
// each. It returns once the parent releases the clients (or closes in,
// or the run's bound passes) and every outcome is written. A program
// that serves as Options.Command calls it on its standard input and
// output.
func Child(ctx context.Context, in io.Reader, out io.Writer) error {
	rd := bufio.NewReader(in)
	line, err := rd.ReadString('\n')
	if err != nil {
		return fmt.Errorf("lobbyload: child: reading the run: %w", err)
	}
	var sp spec
	if err := json.Unmarshal([]byte(line), &sp); err != nil {
		return fmt.Errorf("lobbyload: child: the run %q: %w", strings.TrimSpace(line), err)
	}
	n := sp.To - sp.From
	if n < 1 || n > perChild || len(sp.URLs) == 0 || sp.Parallel < 1 || sp.Timeout <= 0 {
		return fmt.Errorf("lobbyload: child: the run %q: 1 to %d clients, one or more URLs, Parallel and Timeout above 0 allowed", strings.TrimSpace(line), perChild)
	}
	// The parent's bound and a minute to write the outcomes.
	ctx, cancel := context.WithTimeout(ctx, sp.Timeout+time.Minute)
	defer cancel()

	w := bufio.NewWriter(out)
	var wmu sync.Mutex
	write := func(kind byte, arg string) {
		wmu.Lock()
		w.WriteByte(kind)
		if arg != "" {
			w.WriteByte(' ')
			w.WriteString(arg)
		}
		w.WriteByte('\n')
		w.Flush()
		wmu.Unlock()
	}
	r := &run{o: Options{Clients: n, Parallel: sp.Parallel}, urls: sp.URLs, dead: make([]atomic.Bool, len(sp.URLs)),
		allDone: make(chan struct{}), refused: make(map[lobby.Reason]int), start: time.Now(), note: write}

	release, releaseAll := context.WithCancel(ctx)
	defer releaseAll()
	go func() {
		// The parent's orders; its end (EOF) releases the clients too.
		defer releaseAll()
		for {
			l, err := rd.ReadString('\n')
			if err != nil {
				return
			}
			switch f := strings.Fields(l); {
			case len(f) == 2 && f[0] == string(noteDead):
				if i, err := strconv.Atoi(f[1]); err == nil && i >= 0 && i < len(r.dead) {
					r.dead[i].Store(true)
				}
			case len(f) == 1 && f[0] == string(noteRelease):
				return
			}
		}
	}()
	var before goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	outs := make([]outcome, n)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.clients(ctx, release, sp.From, outs)
	}()
	select {
	case <-r.allDone:
		var after goruntime.MemStats
		goruntime.GC()
		goruntime.ReadMemStats(&after)
		write(noteMemory, strconv.FormatInt(int64(after.HeapInuse+after.StackInuse)-int64(before.HeapInuse+before.StackInuse), 10))
	case <-release.Done():
	}
	<-done
	for i, o := range outs {
		b, _ := json.Marshal(struct {
			I int `json:"n"`
			outcome
		}{sp.From + i, o})
		write(noteOutcome, string(b))
	}
	if ctx.Err() != nil {
		return errors.New("lobbyload: child: the run passed its bound")
	}
	return nil
}

// workers are the child processes of a run, seen from the parent.
type workers struct {
	mu   sync.Mutex // orders the lines written to the children
	ins  []io.WriteCloser
	cmds []*exec.Cmd
	errs []*tail
	wg   sync.WaitGroup // the readers of the children's lines

	emu sync.Mutex
	err error // the first malformed line
	// Mem is the children's heap and stack growth once their clients
	// were done, summed.
	Mem atomic.Int64
}

// start runs r.o.Workers children, each with its share of the clients,
// their outcomes landing in out.
func (ws *workers) start(r *run, out []outcome) error {
	n := r.o.Workers
	per := (r.o.Clients + n - 1) / n
	if per > perChild {
		return fmt.Errorf("lobbyload: %d clients over %d workers is %d each: at most %d per worker allowed, %d workers or more needed", r.o.Clients, n, per, perChild, (r.o.Clients+perChild-1)/perChild)
	}
	parallel := max(1, r.o.Parallel/n)
	for k := range n {
		from, to := k*per, min((k+1)*per, r.o.Clients)
		if from >= to {
			break
		}
		cmd := r.o.Command()
		in, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		rd, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		t := &tail{}
		cmd.Stderr = t
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("lobbyload: starting worker %d: %w", k, err)
		}
		ws.cmds, ws.ins, ws.errs = append(ws.cmds, cmd), append(ws.ins, in), append(ws.errs, t)
		b, _ := json.Marshal(spec{URLs: r.urls, From: from, To: to, Parallel: parallel, Timeout: r.o.Timeout})
		ws.tellOne(in, string(b))
		ws.wg.Go(func() { ws.read(r, rd, out, from, to) })
	}
	return nil
}

func (ws *workers) tellOne(in io.Writer, line string) {
	ws.mu.Lock()
	io.WriteString(in, line+"\n")
	ws.mu.Unlock()
}

// tell writes line to every child.
func (ws *workers) tell(line string) {
	ws.mu.Lock()
	ins := ws.ins
	ws.mu.Unlock()
	for _, in := range ins {
		ws.tellOne(in, line)
	}
}

// read counts a child's steps into r and its outcomes into out, until
// the child closes its output.
func (ws *workers) read(r *run, rd io.Reader, out []outcome, from, to int) {
	sc := bufio.NewScanner(rd)
	for sc.Scan() {
		l := sc.Text()
		if l == "" {
			continue
		}
		arg := strings.TrimPrefix(l[1:], " ")
		switch l[0] {
		case noteDialled, notePaired:
			r.progress.Add(1)
		case noteEntered:
			r.enter()
		case noteDone:
			r.finish()
		case noteResumed:
			r.resumed.Add(1)
			if arg == noteAfresh {
				r.afresh.Add(1)
			}
			r.progress.Add(1)
		case noteStray:
			r.stray.Add(1)
			r.progress.Add(1)
		case noteRefused:
			r.refuse(lobby.Reason(arg))
		case noteMemory:
			if v, err := strconv.ParseInt(arg, 10, 64); err == nil {
				ws.Mem.Add(v)
			}
		case noteOutcome:
			var o struct {
				I int `json:"n"`
				outcome
			}
			if err := json.Unmarshal([]byte(arg), &o); err != nil || o.I < from || o.I >= to {
				ws.fail(fmt.Errorf("lobbyload: a worker's outcome %q: want one of clients %d to %d", l, from, to-1))
				continue
			}
			out[o.I] = o.outcome
		default:
			ws.fail(fmt.Errorf("lobbyload: a worker's line %q: unknown", l))
		}
	}
	if err := sc.Err(); err != nil {
		ws.fail(fmt.Errorf("lobbyload: reading a worker: %w", err))
		io.Copy(io.Discard, rd) // let it finish writing
	}
}

func (ws *workers) fail(err error) {
	ws.emu.Lock()
	if ws.err == nil {
		ws.err = err
	}
	ws.emu.Unlock()
}

// stop releases every child's clients, waits for their outcomes and for
// the children to exit (each bounded by its run's timeout), and returns
// the first failure.
func (ws *workers) stop() error {
	ws.tell(string(noteRelease))
	ws.mu.Lock()
	for _, in := range ws.ins {
		in.Close()
	}
	ws.mu.Unlock()
	ws.wg.Wait()
	errs := []error{ws.err}
	for k, cmd := range ws.cmds {
		if err := cmd.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("lobbyload: worker %d: %w: %s", k, err, ws.errs[k].String()))
		}
	}
	return errors.Join(errs...)
}

// tail keeps the last 4 KiB written to it: a worker's standard error.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.b = append(t.b, p...)
	if len(t.b) > 4<<10 {
		t.b = t.b[len(t.b)-4<<10:]
	}
	t.mu.Unlock()
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}
