//go:build js && wasm

package pagemark

import "syscall/js"

// Mark records name at this instant on the page's performance timeline.
// A handful of calls per start; any goroutine.
func Mark(name string) {
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", name)
	}
}
