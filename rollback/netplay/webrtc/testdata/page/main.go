//go:build js

// Command page joins a WebRTC host from a web page for the package's
// browser test: ?join=ADDR&pin=PIN (the pin in base64url). It sends
// "from the page" until the host answers "to the page", then sets
// window.result to "joined", or to "error: ..." when the join fails.
package main

import (
	"context"
	"encoding/base64"
	"net/url"
	"strings"
	"syscall/js"
	"time"

	"github.com/metronome-go/metronome/rollback/netplay/webrtc"
)

func main() {
	result := func(s string) { js.Global().Set("result", s) }
	q, _ := url.ParseQuery(strings.TrimPrefix(js.Global().Get("location").Get("search").String(), "?"))
	b, err := base64.RawURLEncoding.DecodeString(q.Get("pin"))
	if err != nil {
		result("error: pin: " + err.Error())
		return
	}
	pin, err := webrtc.ParsePin(b)
	if err != nil {
		result("error: " + err.Error())
		return
	}
	c, host, err := webrtc.Dial(context.Background(), q.Get("join"), pin, webrtc.Config{})
	if err != nil {
		result("error: " + err.Error())
		return
	}
	got := make(chan struct{})
	go func() {
		buf := make([]byte, 2048)
		for {
			n, _, err := c.ReadFrom(buf)
			if err != nil {
				continue
			}
			if string(buf[:n]) == "to the page" {
				close(got)
				return
			}
		}
	}()
	tick := time.NewTicker(20 * time.Millisecond)
	for range 1000 {
		c.WriteTo([]byte("from the page"), host)
		select {
		case <-got:
			result("joined")
			select {} // keep the page's end open
		case <-tick.C:
		}
	}
	result("error: the host never answered")
}
