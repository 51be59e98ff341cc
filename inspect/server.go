package inspect

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/render2d/nullrender"
)

//go:embed page
var page embed.FS

// MaxFieldTicks is the longest tick range one /api/field request reads.
const MaxFieldTicks = 20000

// ServerOptions configure [Listen] and [NewHandler].
type ServerOptions struct {
	// Remote lets Listen use an address beyond loopback. Every request
	// must then carry the Token (a query parameter "token" or the header
	// X-Inspect-Token); Listen makes one when Token is empty.
	Remote bool
	// Token, when not empty, is required of every request, Remote or not.
	Token string
	// Name names the session on the page (the recording's file name).
	Name string
	// Analysis answers the questions that replay the recording again.
	Analysis Analysis
}

// Server serves a [Replay] over HTTP. It owns the Replay from then on:
// every request takes its lock, so one request at a time moves the world.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	url  string
	done chan error
}

// Listen serves rep's page and API on addr. An address without a host
// (":7777") listens on loopback; one whose host is not loopback is refused
// unless opts.Remote. The server runs on a goroutine of its own until
// [Server.Close].
func Listen(rep *Replay, addr string, opts ServerOptions) (*Server, error) {
	return listen(addr, opts, func(opts ServerOptions) (http.Handler, error) { return NewHandler(rep, opts) })
}

// ListenLive is [Listen] for a game inspected while it plays: the page
// follows the live end of live's session and can seek back while the
// game goes on.
func ListenLive(live *Live, addr string, opts ServerOptions) (*Server, error) {
	return listen(addr, opts, func(opts ServerOptions) (http.Handler, error) { return NewLiveHandler(live, opts) })
}

func listen(addr string, opts ServerOptions, handler func(ServerOptions) (http.Handler, error)) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: address %q: %w (want host:port or :port)", addr, err)
	}
	if host == "" && !opts.Remote {
		host = "127.0.0.1"
	}
	if !opts.Remote && !loopback(host) {
		return nil, fmt.Errorf("inspect: address %q is not loopback: the inspector listens beyond this machine only with --inspect-remote, behind a token", addr)
	}
	if opts.Remote && opts.Token == "" {
		opts.Token = newToken()
	}
	h, err := handler(opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	shown := ln.Addr().String()
	if ap, err := netip.ParseAddrPort(shown); err == nil && ap.Addr().IsUnspecified() {
		shown = net.JoinHostPort("localhost", strconv.Itoa(int(ap.Port())))
	}
	s := &Server{ln: ln, url: "http://" + shown + "/", done: make(chan error, 1),
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	if opts.Token != "" {
		s.url += "?token=" + opts.Token
	}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// URL returns the page's address, with its token when it needs one.
func (s *Server) URL() string { return s.url }

// Close stops the server and waits for its goroutine.
func (s *Server) Close() error {
	err := s.srv.Close()
	if e := <-s.done; !errors.Is(e, http.ErrServerClosed) {
		err = errors.Join(err, e)
	}
	return err
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return hex.EncodeToString(b[:])
}

// handler is the page and the API over one Replay.
type handler struct {
	own   sync.Mutex
	lock  *sync.Mutex // own, or a Live's
	live  *Live       // nil for a finished replay
	rep   *Replay     // under lock; from live once its first tick ran
	opts  ServerOptions
	mux   *http.ServeMux
	comps []ecs.ComponentValue // scratch
	res   []ecs.ResourceValue
	// frameBuf is the frame /api/frame prepares, reused.
	frameBuf render2d.Frame
	// textures holds the handles of the game's atlas pages (frame.go).
	textures *nullrender.Renderer
	// compared is the comparison's answer, kept: it does not change.
	compared *CompareAnswer
}

// NewHandler returns the page and the JSON API over rep (described in
// the package documentation), for a server of the caller's; rep must have
// finished its first pass.
func NewHandler(rep *Replay, opts ServerOptions) (http.Handler, error) {
	if rep == nil || !rep.done {
		return nil, errors.New("inspect: NewHandler needs a Replay whose first pass finished")
	}
	h := &handler{rep: rep, opts: opts}
	h.lock = &h.own
	return h, h.routes()
}

// NewLiveHandler is [NewHandler] for a game inspected while it plays
// (see [Live]). Until the game's first tick reached the follower, the
// API answers 503.
func NewLiveHandler(live *Live, opts ServerOptions) (http.Handler, error) {
	if live == nil {
		return nil, errors.New("inspect: NewLiveHandler needs a Live")
	}
	h := &handler{live: live, lock: &live.run, opts: opts}
	return h, h.routes()
}

func (h *handler) routes() error {
	h.mux = http.NewServeMux()
	sub, err := fs.Sub(page, "page")
	if err != nil {
		return err
	}
	h.mux.Handle("GET /", http.FileServerFS(sub))
	for path, fn := range map[string]func(*query) (any, error){
		"session": h.session, "timeline": h.timeline, "seek": h.seek, "entities": h.entities, "entity": h.entity,
		"resources": h.resources, "input": h.input, "field": h.field, "frame": h.frame,
	} {
		h.mux.HandleFunc("GET /api/"+path, h.api(fn))
	}
	for path, fn := range map[string]func(*query) (any, error){
		"who-wrote": h.whoWrote, "where": h.where, "compare": h.compare,
	} {
		h.mux.HandleFunc("GET /api/"+path, h.api(fn))
	}
	h.mux.HandleFunc("GET /api/texture", h.texture)
	h.mux.HandleFunc("GET /api/write-test", h.api(h.writeTest)) // refused: it writes
	h.mux.HandleFunc("POST /api/write-test", h.api(h.writeTest))
	return nil
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if t := h.opts.Token; t != "" {
		got := r.URL.Query().Get("token")
		if got == "" {
			got = r.Header.Get("X-Inspect-Token")
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(t)) != 1 {
			http.Error(w, "inspect: this inspector needs its access token (?token=, as printed at start)", http.StatusForbidden)
			return
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	h.mux.ServeHTTP(w, r)
}

// apiError is an answer other than 200: a bad parameter (400) or
// something that does not exist (404).
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func bad(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, "inspect: " + fmt.Sprintf(format, args...)}
}

func missing(format string, args ...any) error {
	return &apiError{http.StatusNotFound, "inspect: " + fmt.Sprintf(format, args...)}
}

// query reads a request's parameters, each checked with a message that
// names it and its allowed range.
type query struct {
	r   *http.Request
	rep *Replay
}

func (q *query) uint(name string, def, limit uint64) (uint64, error) {
	s := q.r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > limit {
		return 0, bad("parameter %s=%q: want a whole number from 0 to %d", name, trim(s), limit)
	}
	return v, nil
}

func (q *query) tick() (uint64, error) {
	return q.uint("tick", q.rep.Current(), uint64(q.rep.Ticks()-1))
}

func (q *query) str(name string) string { return q.r.URL.Query().Get(name) }

// trim keeps an echoed parameter short.
func trim(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func (h *handler) api(fn func(*query) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var b []byte
		var err error
		answer := func() {
			var v any
			v, err = h.call(fn, r)
			if err == nil {
				// Encoded under the lock: a live follower appends to
				// what the answer may share (the timeline).
				if raw, ok := v.(json.RawMessage); ok {
					b = raw
				} else {
					b, err = json.Marshal(v)
					b = append(b, '\n')
				}
			}
		}
		h.run(answer)
		if err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}
}

// run runs answer against the replay: for a live game on the follower's
// time between its ticks (and a page asking keeps the follower
// following), otherwise under the handler's lock.
func (h *handler) run(answer func()) {
	if h.live != nil {
		h.live.ask()
		h.live.do(answer)
		return
	}
	h.lock.Lock()
	answer()
	h.lock.Unlock()
}

// writeError answers with err as JSON: its status when it is an
// apiError, 500 otherwise.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var ae *apiError
	if errors.As(err, &ae) {
		status = ae.status
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

// call runs fn on the Replay, which a live game's follower may not have
// made yet, or which it stopped filling because its replay failed.
func (h *handler) call(fn func(*query) (any, error), r *http.Request) (any, error) {
	if h.live != nil {
		h.rep = h.live.rep
		if h.live.fin && h.live.end != nil {
			return nil, fmt.Errorf("inspect: following the live session failed: %w", h.live.end)
		}
		if h.rep == nil {
			return nil, &apiError{http.StatusServiceUnavailable, "inspect: the live session has run no tick yet"}
		}
		if err := h.live.figures(); err != nil {
			return nil, err
		}
	}
	return fn(&query{r: r, rep: h.rep})
}

// seekTo moves the world to the query's tick.
func (h *handler) seekTo(q *query) (uint64, error) {
	t, err := q.tick()
	if err != nil {
		return 0, err
	}
	return t, h.rep.Seek(t)
}

func (h *handler) session(q *query) (any, error) {
	var comps []string
	seen := map[string]bool{}
	h.rep.App().World().EachEntity(func(e ecs.Entity) bool {
		h.comps = h.rep.App().World().ComponentsOf(e, h.comps[:0])
		for _, c := range h.comps {
			if !seen[c.Type.Name()] {
				seen[c.Type.Name()] = true
				comps = append(comps, c.Type.Name())
			}
		}
		return true
	})
	markers := h.rep.Markers()
	return map[string]any{
		"name": h.opts.Name, "ticks": h.rep.Ticks(), "current": h.rep.Current(), "keyframe_every": h.rep.KeyframeEvery(),
		"memory": h.rep.Memory(), "components": comps, "markers": markers, "last_seek": h.rep.LastSeek(),
		"read_only": true, "live": h.live != nil && !h.live.fin, "presents": h.presents(), "match": h.rep.figures.Match,
	}, nil
}

// presents are a live game's presents over its ticks (Live.Presents),
// or those its recording kept (Replay.SetFigures).
func (h *handler) presents() []PresentSpan {
	if h.live != nil {
		return h.live.Presents([]PresentSpan{})
	}
	if p := h.rep.Presents(); p != nil {
		return p
	}
	return []PresentSpan{}
}

func (h *handler) timeline(q *query) (any, error) {
	n := uint64(h.rep.Ticks())
	from, err := q.uint("from", 0, n)
	if err != nil {
		return nil, err
	}
	to, err := q.uint("to", n, n)
	if err != nil {
		return nil, err
	}
	if to < from {
		return nil, bad("from=%d is after to=%d", from, to)
	}
	var pres []PresentSpan
	for _, p := range h.presents() {
		if p.To > from && p.From < to {
			pres = append(pres, p)
		}
	}
	if pres == nil {
		pres = []PresentSpan{}
	}
	return map[string]any{"from": from, "to": to, "ticks": h.rep.Timeline(from, to), "presents": pres, "net": h.rep.Net(from, to)}, nil
}

// seekAnswer is /api/seek's answer: how the seek went, and the world's
// hash after the tick (ecs.App.Hash's total, in hex as a match's
// confirmed line writes it), to check against a recording's
// checkpoints or a match's confirmed hash.
type seekAnswer struct {
	SeekStats
	Hash string `json:"hash"`
}

func (h *handler) seek(q *query) (any, error) {
	if _, err := h.seekTo(q); err != nil {
		return nil, err
	}
	sum, err := h.rep.App().Hash()
	if err != nil {
		return nil, err
	}
	return seekAnswer{SeekStats: h.rep.LastSeek(), Hash: fmt.Sprintf("%016x", sum.Total)}, nil
}

type entitySummary struct {
	Entity     string   `json:"entity"`
	ID         uint32   `json:"id"`
	Gen        uint32   `json:"gen"`
	Components []string `json:"components"`
}

func (h *handler) entities(q *query) (any, error) {
	t, err := h.seekTo(q)
	if err != nil {
		return nil, err
	}
	want := q.str("component")
	w := h.rep.App().World()
	list := []entitySummary{}
	w.EachEntity(func(e ecs.Entity) bool {
		h.comps = w.ComponentsOf(e, h.comps[:0])
		s := entitySummary{Entity: e.String(), ID: e.ID(), Gen: e.Generation()}
		match := want == ""
		for _, c := range h.comps {
			s.Components = append(s.Components, c.Type.Name())
			match = match || componentName(c.Type, want)
		}
		if match {
			list = append(list, s)
		}
		return true
	})
	return map[string]any{"tick": t, "component": want, "entities": list}, nil
}

// lookup finds the entity of the query's id and gen in the world as it is.
func (h *handler) lookup(q *query) (ecs.Entity, error) {
	id, err := q.uint("id", 0, 1<<32-1)
	if err != nil {
		return ecs.Entity{}, err
	}
	gen, err := q.uint("gen", 0, 1<<32-1)
	if err != nil {
		return ecs.Entity{}, err
	}
	if q.str("id") == "" {
		return ecs.Entity{}, bad("parameter id is missing: want an entity's id (and gen) from /api/entities")
	}
	e, ok := h.rep.App().World().EntityOf(uint32(id), uint32(gen))
	if !ok {
		return e, missing("no entity with id %d and generation %d at tick %d", id, gen, h.rep.Current())
	}
	return e, nil
}

func (h *handler) entity(q *query) (any, error) {
	t, err := h.seekTo(q)
	if err != nil {
		return nil, err
	}
	e, err := h.lookup(q)
	if err != nil {
		return nil, err
	}
	h.comps = h.rep.App().World().ComponentsOf(e, h.comps[:0])
	b := fmt.Appendf(nil, `{"tick":%d,"entity":%q,"id":%d,"gen":%d,"components":[`, t, e.String(), e.ID(), e.Generation())
	for i, c := range h.comps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":`...)
		b = appendString(b, c.Type.Name())
		b = fmt.Appendf(b, `,"presentation":%t,"excluded":%t,"value":`, c.Presentation, c.Excluded)
		b = appendJSON(b, reflect.ValueOf(c.Value).Elem(), 0)
		b = append(b, '}')
	}
	return json.RawMessage(append(b, "]}\n"...)), nil
}

func (h *handler) resources(q *query) (any, error) {
	t, err := h.seekTo(q)
	if err != nil {
		return nil, err
	}
	h.res = h.rep.App().World().Resources(h.res[:0])
	b := fmt.Appendf(nil, `{"tick":%d,"resources":[`, t)
	for i, r := range h.res {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":`...)
		b = appendString(b, r.Name)
		b = append(b, `,"value":`...)
		b = appendJSON(b, reflect.ValueOf(r.Value), 0)
		b = append(b, '}')
	}
	return json.RawMessage(append(b, "]}\n"...)), nil
}

type actionInput struct {
	Action   string        `json:"action"`
	Down     bool          `json:"down"`
	Presses  int           `json:"presses"`
	Releases int           `json:"releases"`
	Held     time.Duration `json:"held_ns"`
	Value    float32       `json:"value"`
}

func (h *handler) input(q *query) (any, error) {
	t, err := q.tick()
	if err != nil {
		return nil, err
	}
	in := h.rep.Input(t)
	acts := []actionInput{}
	if a := h.rep.Actions(); a != nil {
		for i := range a.Len() + 1 {
			act := input.Action(i)
			name := a.Name(act)
			if name == "" {
				continue
			}
			s := in.Action(act)
			acts = append(acts, actionInput{Action: name, Down: s.Down, Presses: s.Presses, Releases: s.Releases, Held: s.Held, Value: s.Value})
		}
	}
	cx, cy := in.Cursor()
	return map[string]any{"tick": t, "player": 0, "actions": acts, "records": len(in.Records()), "text": in.Text(),
		"cursor": []float64{cx, cy}, "observed_ns": in.Observed()}, nil
}

type fieldSample struct {
	Tick  uint64          `json:"tick"`
	Value json.RawMessage `json:"value"`
}

// field reads one field of one entity at every tick of a range, moving
// forward tick by tick (one seek, then one tick each).
func (h *handler) field(q *query) (any, error) {
	n := uint64(h.rep.Ticks())
	from, err := q.uint("from", 0, n-1)
	if err != nil {
		return nil, err
	}
	to, err := q.uint("to", n-1, n-1)
	if err != nil {
		return nil, err
	}
	if to < from || to-from >= MaxFieldTicks {
		return nil, bad("from=%d to=%d: want from <= to and at most %d ticks", from, to, MaxFieldTicks)
	}
	path := q.str("path")
	comp, rest, _ := strings.Cut(path, ".")
	if comp == "" {
		return nil, bad("parameter path=%q: want Component.Field (such as Transform.Position.X)", trim(path))
	}
	var samples []fieldSample
	var first error
	w := h.rep.App().World()
	for t := from; t <= to; t++ {
		if err := h.rep.Seek(t); err != nil {
			return nil, err
		}
		e, err := h.lookup(q)
		if err != nil {
			var ae *apiError
			if errors.As(err, &ae) && ae.status == http.StatusNotFound {
				samples = append(samples, fieldSample{Tick: t, Value: json.RawMessage("null")})
				continue // not alive at this tick
			}
			return nil, err
		}
		h.comps = w.ComponentsOf(e, h.comps[:0])
		var v reflect.Value
		found := false
		for _, c := range h.comps {
			if componentName(c.Type, comp) {
				v, err = field(reflect.ValueOf(c.Value).Elem(), rest)
				found = true
				break
			}
		}
		switch {
		case !found:
			samples = append(samples, fieldSample{Tick: t, Value: json.RawMessage("null")})
		case err != nil:
			if first == nil {
				first = err
			}
		default:
			samples = append(samples, fieldSample{Tick: t, Value: appendJSON(nil, v, 0)})
		}
		if first != nil {
			return nil, bad("path=%q: %v", trim(path), first)
		}
	}
	return map[string]any{"path": path, "from": from, "to": to, "samples": samples}, nil
}
