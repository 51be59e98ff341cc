//go:build js

package webrtc

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"
)

// link is the browser's RTCPeerConnection and its data channel, reached
// through syscall/js: the page's ICE, DTLS and SCTP are the browser's, so
// a page links none of pion's.
type link struct {
	pc, dc js.Value
	funcs  []js.Func
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
	pc := ctor.New(conf)
	dc := pc.Call("createDataChannel", label, map[string]any{"negotiated": true, "id": channelID, "ordered": false, "maxRetransmits": 0})
	dc.Set("binaryType", "arraybuffer")
	return &link{pc: pc, dc: dc}, nil
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
	l.funcs = append(l.funcs, fn)
	v.Set(event, fn)
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

func (l *link) onOpen(f func())  { l.on(l.dc, "onopen", false, func(js.Value) { f() }) }
func (l *link) onClose(f func()) { l.on(l.dc, "onclose", false, func(js.Value) { f() }) }

// onMessage copies each message out of the browser; f must not block.
func (l *link) onMessage(f func([]byte)) {
	u8 := js.Global().Get("Uint8Array")
	l.on(l.dc, "onmessage", true, func(e js.Value) {
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

func (l *link) makeOffer() (sdp string, err error) {
	defer catch(&err)
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
// answering end (room.go).
func (l *link) makeAnswer(offer string) (sdp string, err error) {
	defer catch(&err)
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

func (l *link) buffered() uint64 { return uint64(l.dc.Get("bufferedAmount").Int()) }

// close closes the connection and, its handlers unset first, frees
// them.
func (l *link) close() (err error) {
	defer catch(&err)
	for _, ev := range []string{"onopen", "onclose", "onmessage"} {
		l.dc.Set(ev, js.Null())
	}
	for _, ev := range []string{"onicecandidate", "onconnectionstatechange"} {
		l.pc.Set(ev, js.Null())
	}
	l.dc.Call("close")
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
