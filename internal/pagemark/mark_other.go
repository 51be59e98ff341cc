//go:build !(js && wasm)

package pagemark

// Mark does nothing outside a browser: a native start has its own tools.
func Mark(string) {}
