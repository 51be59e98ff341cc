//go:build js

package inspect

import (
	"bytes"
	"errors"
	"net/http"
	"syscall/js"
)

// ServeInPage answers the inspector page's requests in the page itself,
// with no network: it defines the JavaScript function globalThis[name]
// (method, url) that runs h on a request for url and returns a Promise
// of {status, type, body}, body a Uint8Array. The page (inspect/page)
// takes its answers from globalThis.metronomeInspect when it exists, so
// a game built for the browser serves its own recording's inspector
// this way. Each call runs h on a goroutine of its own: a JavaScript
// callback must not block. The returned function removes the name and
// frees the callback.
func ServeInPage(name string, h http.Handler) (release func(), err error) {
	if name == "" || h == nil {
		return nil, errors.New("inspect: ServeInPage needs a name and a handler")
	}
	promise := js.Global().Get("Promise")
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		method, url := "GET", "/"
		if len(args) > 0 && args[0].Type() == js.TypeString {
			method = args[0].String()
		}
		if len(args) > 1 && args[1].Type() == js.TypeString {
			url = args[1].String()
		}
		var resolve js.Func
		resolve = js.FuncOf(func(_ js.Value, p []js.Value) any {
			resolve.Release()
			ok := p[0]
			go func() {
				status, typ, body := serveOne(h, method, url)
				arr := js.Global().Get("Uint8Array").New(len(body))
				js.CopyBytesToJS(arr, body)
				ok.Invoke(map[string]any{"status": status, "type": typ, "body": arr})
			}()
			return nil
		})
		return promise.New(resolve)
	})
	js.Global().Set(name, fn)
	return func() {
		js.Global().Delete(name)
		fn.Release()
	}, nil
}

// serveOne runs h on one request and returns its answer.
func serveOne(h http.Handler, method, url string) (status int, typ string, body []byte) {
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		return http.StatusBadRequest, "text/plain", []byte("inspect: " + err.Error())
	}
	w := &pageResponse{header: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status, w.header.Get("Content-Type"), w.body.Bytes()
}

// pageResponse is the http.ResponseWriter of a request from the page.
type pageResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *pageResponse) Header() http.Header { return w.header }

func (w *pageResponse) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *pageResponse) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}
