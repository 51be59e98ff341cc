//go:build js

package webrtc

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"
)

// link is the browser's RTCPeerConnection and its data channel, reached
// through syscall/js: the page's ICE, DTLS and SCTP are the browser's, so
// a page links none of pion's. As natively (link_pion.go), the offerer
// opens the channel in band and the answerer takes it as it arrives.
type link struct {
	pc    js.Value
	funcs []js.Func

	mu       sync.Mutex
	dc       js.Value           // undefined until offered or accepted
	handlers map[string]js.Func // the channel's, set on it once it is there
}

func newLink(cfg Config) (l *link, err error) {
	defer catch(&err)
	var servers []any
	if len(cfg.STUN) > 0 {
		urls := make([]any, len(cfg.STUN))
		for i, u := range cfg.STUN {
			urls[i] = u
		}
		servers = append(servers, map[string]any{"urls": urls})
	}
	for _, t := range cfg.TURN {
		servers = append(servers, map[string]any{"urls": t.URL, "username": t.Username, "credential": t.Credential})
	}
	conf := map[string]any{"iceServers": servers}
	if cfg.Relay {
		conf["iceTransportPolicy"] = "relay"
	}
	ctor := js.Global().Get("RTCPeerConnection")
	if ctor.IsUndefined() {
		return nil, errors.New("webrtc: this browser has no RTCPeerConnection")
	}
	return &link{pc: ctor.New(conf), dc: js.Undefined(), handlers: map[string]js.Func{}}, nil
}

// attach makes dc the link's channel and sets the handlers given so far
// on it. Only the first channel counts; another is closed.
func (l *link) attach(dc js.Value) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.dc.IsUndefined() {
		dc.Call("close")
		return
	}
	dc.Set("binaryType", "arraybuffer")
	l.dc = dc
	for ev, fn := range l.handlers {
		dc.Set(ev, fn)
	}
}

// onChannel sets a handler of the channel's, now or once it is there.
func (l *link) onChannel(event string, now bool, f func(js.Value)) {
	fn := l.wrap(now, f)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.handlers[event] = fn
	if !l.dc.IsUndefined() {
		l.dc.Set(event, fn)
	}
}

// catch turns a JavaScript exception into err.
func catch(err *error) {
	if r := recover(); r != nil {
		if je, ok := r.(js.Error); ok {
			*err = fmt.Errorf("webrtc: %s", je.Error())
			return
		}
		panic(r)
	}
}

// on sets a handler. A callback must not block the browser's event
// loop, so f runs on a goroutine of its own unless now says it returns
// at once.
func (l *link) on(v js.Value, event string, now bool, f func(js.Value)) {
	v.Set(event, l.wrap(now, f))
}

// wrap is f as a JavaScript function, freed when the link closes.
func (l *link) wrap(now bool, f func(js.Value)) js.Func {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var e js.Value
		if len(args) > 0 {
			e = args[0]
		}
		if now {
			f(e)
		} else {
			go f(e)
		}
		return nil
	})
	l.mu.Lock()
	l.funcs = append(l.funcs, fn)
	l.mu.Unlock()
	return fn
}

func (l *link) onCandidate(f func(candidate, mid string)) {
	l.on(l.pc, "onicecandidate", false, func(e js.Value) {
		c := e.Get("candidate")
		if c.IsNull() || c.IsUndefined() || c.Get("candidate").String() == "" {
			return
		}
		mid := ""
		if m := c.Get("sdpMid"); m.Type() == js.TypeString {
			mid = m.String()
		}
		f(c.Get("candidate").String(), mid)
	})
}

func (l *link) onEnd(f func(failed bool)) {
	l.on(l.pc, "onconnectionstatechange", false, func(js.Value) {
		switch l.pc.Get("connectionState").String() {
		case "failed":
			f(true)
		case "closed":
			f(false)
		}
	})
}

func (l *link) onOpen(f func())  { l.onChannel("onopen", false, func(js.Value) { f() }) }
func (l *link) onClose(f func()) { l.onChannel("onclose", false, func(js.Value) { f() }) }

// onMessage copies each message out of the browser; f must not block.
func (l *link) onMessage(f func([]byte)) {
	u8 := js.Global().Get("Uint8Array")
	l.onChannel("onmessage", true, func(e js.Value) {
		data := u8.New(e.Get("data"))
		b := make([]byte, data.Length())
		js.CopyBytesToGo(b, data)
		f(b)
	})
}

// await waits for a promise; it must not run on the event loop.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	done := make(chan result, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		var v js.Value
		if len(args) > 0 {
			v = args[0]
		}
		done <- result{v: v}
		return nil
	})
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "rejected"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		done <- result{err: errors.New(msg)}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	r := <-done
	return r.v, r.err
}

// makeOffer opens the channel, unordered and never retransmitted, and
// offers it.
func (l *link) makeOffer() (sdp string, err error) {
	defer catch(&err)
	l.attach(l.pc.Call("createDataChannel", label, map[string]any{"ordered": false, "maxRetransmits": 0}))
	off, err := await(l.pc.Call("createOffer"))
	if err == nil {
		_, err = await(l.pc.Call("setLocalDescription", off))
	}
	if err != nil {
		return "", fmt.Errorf("webrtc: offer: %w", err)
	}
	return l.pc.Get("localDescription").Get("sdp").String(), nil
}

// makeAnswer answers a peer's offer: in a room, a page can be the
// answering end (room.go). The offerer's channel is taken when it
// arrives, its handlers set before its open event; one of another label
// is closed.
func (l *link) makeAnswer(offer string) (sdp string, err error) {
	defer catch(&err)
	l.on(l.pc, "ondatachannel", true, func(e js.Value) {
		dc := e.Get("channel")
		if dc.Get("label").String() != label {
			dc.Call("close")
			return
		}
		l.attach(dc)
	})
	if _, err := await(l.pc.Call("setRemoteDescription", map[string]any{"type": "offer", "sdp": offer})); err != nil {
		return "", &Refusal{Reason: "an offer that does not parse: " + clip(err.Error())}
	}
	ans, err := await(l.pc.Call("createAnswer"))
	if err == nil {
		_, err = await(l.pc.Call("setLocalDescription", ans))
	}
	if err != nil {
		return "", fmt.Errorf("webrtc: answer: %w", err)
	}
	return l.pc.Get("localDescription").Get("sdp").String(), nil
}

func (l *link) takeAnswer(sdp string) (err error) {
	defer catch(&err)
	if _, err := await(l.pc.Call("setRemoteDescription", map[string]any{"type": "answer", "sdp": sdp})); err != nil {
		return &Refusal{Reason: "an answer that does not parse: " + clip(err.Error())}
	}
	return nil
}

func (l *link) addCandidate(candidate, mid string) (err error) {
	defer catch(&err)
	_, err = await(l.pc.Call("addIceCandidate", map[string]any{"candidate": candidate, "sdpMid": mid}))
	return err
}

func (l *link) send(b []byte) (err error) {
	defer catch(&err)
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	l.dc.Call("send", u8)
	return nil
}

// send and buffered are for an open link, whose channel is there.
func (l *link) buffered() uint64 { return uint64(l.dc.Get("bufferedAmount").Int()) }

// close closes the connection and, its handlers unset first, frees
// them.
func (l *link) close() (err error) {
	defer catch(&err)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.dc.IsUndefined() {
		for ev := range l.handlers {
			l.dc.Set(ev, js.Null())
		}
		l.dc.Call("close")
	}
	for _, ev := range []string{"onicecandidate", "onconnectionstatechange", "ondatachannel"} {
		l.pc.Set(ev, js.Null())
	}
	l.pc.Call("close")
	for _, f := range l.funcs {
		f.Release()
	}
	l.funcs = nil
	return nil
}

// path reads the selected candidate pair from the connection's
// statistics (getStats): the transport names it, or, in a browser that
// does not, the pair marked selected or nominated and succeeded.
func (l *link) path() (pp PeerPath, err error) {
	defer catch(&err)
	report, err := await(l.pc.Call("getStats"))
	if err != nil {
		return PeerPath{}, err
	}
	byID := map[string]js.Value{}
	var selected string
	each := js.FuncOf(func(_ js.Value, args []js.Value) any {
		st := args[0]
		id := st.Get("id").String()
		byID[id] = st
		switch st.Get("type").String() {
		case "transport":
			if v := st.Get("selectedCandidatePairId"); v.Type() == js.TypeString && selected == "" {
				selected = v.String()
			}
		case "candidate-pair":
			if selected == "" && (st.Get("selected").Truthy() || st.Get("nominated").Truthy() && st.Get("state").String() == "succeeded") {
				selected = id
			}
		}
		return nil
	})
	defer each.Release()
	report.Call("forEach", each)
	pair, ok := byID[selected]
	if !ok {
		return PeerPath{}, errors.New("no selected path yet")
	}
	relay := func(key string) bool {
		c, ok := byID[pair.Get(key).String()]
		return ok && c.Get("candidateType").String() == "relay"
	}
	pp.Relayed = relay("localCandidateId") || relay("remoteCandidateId")
	if v := pair.Get("currentRoundTripTime"); v.Type() == js.TypeNumber {
		pp.RTT = time.Duration(v.Float() * float64(time.Second))
	}
	if v := pair.Get("bytesSent"); v.Type() == js.TypeNumber {
		pp.Sent = uint64(v.Float())
	}
	if v := pair.Get("bytesReceived"); v.Type() == js.TypeNumber {
		pp.Received = uint64(v.Float())
	}
	return pp, nil
}
