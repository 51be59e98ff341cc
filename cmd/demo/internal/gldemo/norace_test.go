//go:build !race

package gldemo_test

// raceEnabled is true under the race detector, which makes the demo's Go
// code several times slower: tests that measure real-time rates skip.
const raceEnabled = false
