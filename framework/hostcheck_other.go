//go:build !js

package framework

// inPage is true in the browser build.
const inPage = false
