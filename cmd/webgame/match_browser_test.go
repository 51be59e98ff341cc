//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/metronome-go/metronome/recording"
)

var (
	hostJoinLine  = regexp.MustCompile(`--join (\S+) --token (\S+)`)
	confirmedLine = regexp.MustCompile(`confirmed tick (\d+) hash ([0-9a-f]{16})`)
	netLine       = regexp.MustCompile(`(?m)^net: .*$`)
)

// pageWatch runs in a match page before its own scripts: it keeps every
// text the page's message line takes (the catching-up line comes and
// goes within a second), counts animation frames (the rate presents are
// held against), notes when the game's module starts (the --join), and
// notes when the game says the match started, and keeps the page's peer
// connections for their byte counts.
const pageWatch = `(() => {
	globalThis.watch = { messages: [], frames: 0, started: 0, matched: 0, pcs: [] };
	// The page decodes what the game writes: note when it says the match started.
	const decode = TextDecoder.prototype.decode;
	TextDecoder.prototype.decode = function (...a) {
		const s = decode.apply(this, a);
		if (!watch.matched && s.includes("match started")) { watch.matched = performance.now(); }
		return s;
	};
	const frame = () => { watch.frames++; requestAnimationFrame(frame); };
	requestAnimationFrame(frame);
	document.addEventListener("DOMContentLoaded", () => {
		const m = document.getElementById("message");
		new MutationObserver(() => watch.messages.push(m.textContent)).observe(m, { childList: true, characterData: true, subtree: true });
	});
	const inst = WebAssembly.instantiateStreaming;
	WebAssembly.instantiateStreaming = (...a) => inst(...a).then((r) => { watch.started = performance.now(); return r; });
	const PC = RTCPeerConnection;
	globalThis.RTCPeerConnection = function (...a) { const pc = new PC(...a); watch.pcs.push(pc); return pc; };
	globalThis.RTCPeerConnection.prototype = PC.prototype;
	// Each data channel send blocks the page until the browser's network
	// thread takes it: count them and the time they take.
	watch.sends = 0; watch.sendMs = 0;
	const send = RTCDataChannel.prototype.send;
	RTCDataChannel.prototype.send = function (...a) { const t = performance.now(); try { return send.apply(this, a); } finally { watch.sends++; watch.sendMs += performance.now() - t; } };
})();`

// transportBytes sums, over the page's peer connections, the bytes its
// ICE transports sent and received: DTLS and SCTP included.
const transportBytes = `Promise.all(watch.pcs.map((pc) => pc.getStats())).then((all) => {
	let sent = 0, received = 0;
	for (const stats of all) { stats.forEach((s) => { if (s.type === "transport") { sent += s.bytesSent; received += s.bytesReceived; } }); }
	return [sent, received, performance.now()];
})`

// lineLog is a process's output that the test reads while the process
// still writes it, and waits on as it grows.
type lineLog struct {
	mu   sync.Mutex
	b    strings.Builder
	grew chan struct{}
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grew != nil {
		close(l.grew)
		l.grew = nil
	}
	return l.b.Write(p)
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor waits until the text matches re, or done is closed (the
// process ended); it returns the match, "" if none.
func (l *lineLog) waitFor(re *regexp.Regexp, done <-chan struct{}) string {
	for {
		l.mu.Lock()
		if m := re.FindString(l.b.String()); m != "" {
			l.mu.Unlock()
			return m
		}
		if l.grew == nil {
			l.grew = make(chan struct{})
		}
		grew := l.grew
		l.mu.Unlock()
		select {
		case <-grew:
		case <-done:
			return re.FindString(l.String())
		}
	}
}

// waitCount waits until the text says want n times, or done is closed;
// it reports whether it did.
func (l *lineLog) waitCount(want string, n int, done <-chan struct{}) bool {
	for {
		l.mu.Lock()
		if strings.Count(l.b.String(), want) >= n {
			l.mu.Unlock()
			return true
		}
		if l.grew == nil {
			l.grew = make(chan struct{})
		}
		grew := l.grew
		l.mu.Unlock()
		select {
		case <-grew:
		case <-done:
			return strings.Count(l.String(), want) >= n
		}
	}
}

// lifecycle freezes the page (as a hidden tab's timers and animation
// frames stop) or makes it active again.
func lifecycle(state page.SetWebLifecycleStateState) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.SetWebLifecycleState, page.SetWebLifecycleStateParams{State: state})
		return err
	})
}

// awaited evaluates a JavaScript expression whose value is a promise,
// and returns what it resolves to.
func awaited[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// mainThread returns, from the page's performance metrics, the seconds
// its main thread has spent in tasks and in script so far, and the
// metrics' timestamp: busy time over elapsed time is the page's CPU.
func mainThread(t testing.TB, ctx context.Context) [3]float64 {
	t.Helper()
	var m [3]float64
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{}); err != nil {
			return err
		}
		r, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		for _, v := range r.Metrics {
			switch v.Name {
			case "TaskDuration":
				m[0] = v.Value
			case "ScriptDuration":
				m[1] = v.Value
			case "Timestamp":
				m[2] = v.Value
			}
		}
		return err
	}))
	if err != nil {
		t.Fatalf("reading the page's performance metrics: %v", err)
	}
	return m
}

// recorded is how far a page's recording has come: its ticks, and the
// length of its bytes in base64 (what grows).
type recorded struct{ ticks, size int }

// recordedTicks counts the ticks of the spectator page's recording so
// far (match.rec, written a chunk at a time as it records).
func recordedTicks(t testing.TB, ctx context.Context) recorded {
	t.Helper()
	b64 := eval[string](t, ctx, `metronomePage.file("match.rec") ?? ""`)
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatalf("the spectator's recording: %v", err)
	}
	n := recorded{size: len(b64)}
	r, err := recording.NewReader(bytes.NewReader(data), "match.rec")
	if err != nil {
		return n // not even its header yet
	}
	for {
		it, err := r.Next()
		if err != nil {
			return n // the end of what has been written
		}
		if _, ok := it.(*recording.Tick); ok {
			n.ticks++
		}
	}
}

// pageQuery is the query of a match page: query plus each of args as
// the game's command line.
func pageQuery(q neturl.Values, args ...string) string {
	for _, a := range args {
		q.Add("arg", a)
	}
	return "?" + q.Encode()
}

// TestAPagePlaysADesktopMatch is issue 43's match, played once: the
// duel's native host (--host over WebRTC, --bot) and a page in headless
// Chromium that joins it as the other player with its own bot play 60 s
// at the duel's 60 ticks a second; a second page spectates the match and
// records it. Midway the player's page is frozen, as a hidden tab's
// timers and animation frames stop, while the match goes on for 3 s of
// its ticks (the spectator's recording counts them); the host plays on
// without it past the 2 s debt cutoff. Active again, the page shows a
// line while it resynchronises from the host's snapshot and plays on.
// All three end on the same confirmed line, and the spectator's
// recording, taken out through its download link, replays natively to
// it. The test waits on what the host and the pages say, never on the
// clock; it logs the traffic of the player page's peer connection, its
// time from --join to its first present, its presents per second
// against the animation frames and its data channel sends, before the
// freeze.
func TestAPagePlaysADesktopMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 60 s match between a native host and two pages")
	}
	// 60 s at the duel's 60 ticks a second: a page drawing on the CPU of
	// a loaded machine may get a dozen animation frames a second, and
	// runs up to eight ticks a frame then (timing.max_fixed_updates).
	const rate, ticks = 60, 3600
	dir := t.TempDir()
	bin := filepath.Join(dir, "duel")
	if out, err := exec.Command("go", "build", "-o", bin, "../../examples/duel").CombinedOutput(); err != nil {
		t.Fatalf("go build the duel: %v\n%s", err, out)
	}
	web, err := testBuild(buildOptions{Dir: "../../examples/duel"})
	if err != nil {
		t.Fatal(err)
	}
	// A small window: SwiftShader draws every pixel on the CPU, which
	// the page's 60 presents a second share with the host.
	player := browser(t, chromedp.WindowSize(480, 270))
	site := serve(t, web.handler())

	hctx, kill := context.WithCancel(context.Background())
	t.Cleanup(kill)
	common := []string{"--ticks", strconv.Itoa(ticks), "--set", "timing.rate=" + strconv.Itoa(rate), "--set", "audio.enabled=false", "--set", "net.transport=webrtc",
		"--set", "net.join_timeout=10m", "--set", "net.timeout=30s"}
	host := exec.CommandContext(hctx, bin, append([]string{"--headless", "--host", "127.0.0.1:0", "--bot", "1"}, common...)...)
	var hout, herr lineLog
	host.Stdout, host.Stderr = &hout, &herr
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { host.Wait(); close(done) }()
	m := hostJoinLine.FindStringSubmatch(hout.waitFor(hostJoinLine, done))
	if m == nil {
		t.Fatalf("the host printed no join line:\n%s%s", hout.String(), herr.String())
	}
	addr, token := m[1], m[2]
	fail := func(format string, args ...any) {
		t.Helper()
		kill()
		<-done
		// The player's page says why it left, when it did.
		said, _ := chromedp.Run(player, chromedp.Evaluate[string](`typeof stderr === "undefined" ? "" : (stdout + stderr).slice(-4000)`))
		t.Fatalf(format+"\nhost's output:\n%s%s\nthe player's page's output ends:\n%s", append(args, hout.String(), herr.String(), said)...)
	}

	// Up to eight ticks a frame: a page whose frames come late catches
	// up instead of falling behind the host for good (the key is each
	// machine's own).
	url := site + pageQuery(neturl.Values{"join": {addr}, "token": {token}},
		append([]string{"--bot", "2", "--set", "timing.max_fixed_updates=8"}, common...)...)
	if profiling() {
		startProfile(t, player)
	}
	if err := chromedp.Do(player, beforeLoad(pageWatch), chromedp.Navigate(url)); err != nil {
		fail("opening the player's page: %v", err)
	}
	waitFor(t, player, `globalThis.metronome?.presents > 0 || exitCode !== null`, "the player's page to join and present")
	if profiling() {
		stopProfile(t, player, "to the first present")
		startProfile(t, player)
	}
	if eval[bool](t, player, `exitCode !== null`) {
		fail("the player's page ended before the match: %s", eval[string](t, player, `stdout + stderr`))
	}
	join := eval[[]float64](t, player, `[watch.matched - watch.started, metronome.firstPresentMs - watch.started]`)
	start := eval[[]float64](t, player, `[metronome.presents, watch.frames, performance.now(), watch.sends, watch.sendMs]`)
	wire0 := awaited[[]float64](t, player, transportBytes)
	cpu0 := mainThread(t, player)

	// The spectator's page, in a second tab, records the match; it draws
	// nothing (--no-window), leaving the CPU to the player's page.
	spectator, closeTab := chromedp.NewContext(player)
	defer closeTab()
	url = site + pageQuery(neturl.Values{"spectate": {addr}, "token": {token}}, append([]string{"--no-window", "--record", "match.rec"}, common...)...)
	if err := chromedp.Do(spectator, beforeLoad(pageWatch), chromedp.Navigate(url)); err != nil {
		fail("opening the spectator's page: %v", err)
	}
	waitFor(t, spectator, `stdout.includes("watching:") || exitCode !== null`, "the spectator's page to join")
	if eval[bool](t, spectator, `exitCode !== null`) {
		fail("the spectator's page ended before the match: %s", eval[string](t, spectator, `stdout + stderr`))
	}

	// 300 presents of play, then the player's tab stops for 3 s.
	waitFor(t, player, `metronome.presents >= 300`, "300 presents in the player's page")
	before := eval[[]float64](t, player, `[metronome.presents, watch.frames, performance.now(), watch.sends, watch.sendMs]`)
	if profiling() {
		stopProfile(t, player, "to 300 presents")
	}
	wire1 := awaited[[]float64](t, player, transportBytes)
	cpu1 := mainThread(t, player)
	secs, wireSecs := (before[2]-start[2])/1000, (wire1[2]-wire0[2])/1000
	t.Logf("player page: %.0f ms from --join to the match's start, %.0f ms to its first present (after its first tick); %.1f presents/s against %.1f animation frames/s over %.0f s",
		join[0], join[1], (before[0]-start[0])/secs, (before[1]-start[1])/secs, secs)
	t.Logf("player page: %.1f data channel sends/s taking %.2f ms each; its main thread busy %.0f%% of the time (script %.0f%%)",
		(before[3]-start[3])/secs, (before[4]-start[4])/max(before[3]-start[3], 1), 100*(cpu1[0]-cpu0[0])/(cpu1[2]-cpu0[2]), 100*(cpu1[1]-cpu0[1])/(cpu1[2]-cpu0[2]))
	t.Logf("player page's peer connection (DTLS and SCTP included): %.0f B/s sent, %.0f B/s received",
		(wire1[0]-wire0[0])/wireSecs, (wire1[1]-wire0[1])/wireSecs)
	// A page that cannot keep up (a loaded machine drawing on the CPU)
	// is played on without and resynchronises as a frozen one does: the
	// freeze must add one more.
	const playedOn = "playing on without it"
	t.Logf("before the freeze the host played on without the player's page %d times", strings.Count(herr.String(), playedOn))
	shown := eval[int](t, player, `watch.messages.filter((m) => m.startsWith("Catching up")).length`)
	played := strings.Count(herr.String(), playedOn)
	frozen := time.Now() // for the log only
	if err := chromedp.Do(player, lifecycle(page.SetWebLifecycleStateStateFrozen)); err != nil {
		fail("freezing the player's page: %v", err)
	}
	// The page stays frozen while the match goes on for 3 s of its ticks,
	// as the spectator's recording counts them. The recording lags the
	// spectator by up to a chunk (recording.FlushInterval, half a second
	// of ticks), so the count at the freeze may be that much short.
	from := recordedTicks(t, spectator)
	until := from.ticks + 3*rate + rate/2
	for n := from; n.ticks < until; {
		waitFor(t, spectator, fmt.Sprintf(`(metronomePage.file("match.rec") ?? "").length > %d || exitCode !== null`, n.size),
			"the spectator's recording to grow while the player's page is frozen")
		if eval[bool](t, spectator, `exitCode !== null`) {
			chromedp.Do(player, lifecycle(page.SetWebLifecycleStateStateActive))
			fail("the spectator's page ended while the player's page was frozen: %s", eval[string](t, spectator, `stdout + stderr`))
		}
		n = recordedTicks(t, spectator)
	}
	// The host played on without the frozen page: past the 2 s cutoff it
	// went on without its inputs, and so did the spectator.
	if !herr.waitCount(playedOn, played+1, done) {
		chromedp.Do(player, lifecycle(page.SetWebLifecycleStateStateActive))
		fail("the host did not play on without the frozen page")
	}
	if err := chromedp.Do(player, lifecycle(page.SetWebLifecycleStateStateActive)); err != nil {
		fail("making the player's page active: %v", err)
	}
	t.Logf("the player's page was frozen for %v, while the spectator's recording went from %d ticks to at least %d", time.Since(frozen).Round(100*time.Millisecond), from.ticks, until)
	waitFor(t, player, fmt.Sprintf(`watch.messages.filter((m) => m.startsWith("Catching up")).length > %d && document.getElementById("message").textContent === ""`, shown),
		"the player's page to show a catching-up line and clear it")
	t.Logf("the player's page while it caught up: %q", eval[[]string](t, player, `watch.messages.filter((m) => m.startsWith("Catching up"))`))

	waitFor(t, player, `exitCode !== null`, "the player's page to end the match")
	waitFor(t, spectator, `exitCode !== null && document.querySelector("#files a") !== null`, "the spectator's page to end and offer its recording")
	hostLine := hout.waitFor(confirmedLine, done)
	<-done
	if host.ProcessState == nil || !host.ProcessState.Success() {
		t.Fatalf("the host failed:\n%s%s", hout.String(), herr.String())
	}
	pageOut := func(ctx context.Context, who string) string {
		if code := eval[int](t, ctx, `exitCode`); code != 0 {
			t.Fatalf("the %s page exited with %d:\n%s", who, code, eval[string](t, ctx, `stdout + stderr`))
		}
		return eval[string](t, ctx, `stdout`)
	}
	playerOut, spectatorOut := pageOut(player, "player's"), pageOut(spectator, "spectator's")
	playerLine, spectatorLine := confirmedLine.FindString(playerOut), confirmedLine.FindString(spectatorOut)
	if hostLine == "" || playerLine != hostLine || spectatorLine != hostLine {
		t.Fatalf("the match ends apart:\nhost:      %q\nplayer:    %q\nspectator: %q\nthe player's stderr ends:\n%s", hostLine, playerLine, spectatorLine, eval[string](t, player, `stderr.slice(-3000)`))
	}
	playerErr := eval[string](t, player, `stderr`)
	for _, want := range []string{"resynchronising from the host's snapshot", "caught up on the match at tick"} {
		if !strings.Contains(playerErr, want) {
			t.Errorf("the player's page did not say %q:\n%s", want, playerErr)
		}
	}

	// The recording as its download link gives it.
	b64 := awaited[string](t, spectator, `fetch(document.querySelector("#files a").href).then((r) => r.arrayBuffer()).then((b) => {
		const u = new Uint8Array(b); let s = ""; for (let i = 0; i < u.length; i += 0x8000) { s += String.fromCharCode(...u.subarray(i, i + 0x8000)); } return btoa(s); })`)
	rec, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	recFile := filepath.Join(dir, "match.rec")
	if err := os.WriteFile(recFile, rec, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--replay", recFile).CombinedOutput()
	if got := confirmedLine.FindString(string(out)); err != nil || got != hostLine {
		t.Errorf("--replay of the page's recording: %v, ends with %q, the match with %q\n%s", err, got, hostLine, out)
	}

	t.Logf("all three and the replay of the spectator page's %d-byte recording: %s; the player's page resynchronised %d times in all",
		len(rec), hostLine, strings.Count(playerErr, "resynchronising from the host's snapshot"))
	t.Logf("host: %s\nplayer page: %s\nspectator page: %s", netLine.FindString(hout.String()), netLine.FindString(playerOut), netLine.FindString(spectatorOut))
}
