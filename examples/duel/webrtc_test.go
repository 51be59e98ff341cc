package main

import "testing"

// Two processes of the duel play 10 s over WebRTC on loopback, each with
// seeded random input, and end on the same confirmed tick and world
// hash, as over UDP.
func TestTwoProcessesOverWebRTC(t *testing.T) {
	bin := processTest(t, "starts two processes for 10 s of play over WebRTC")
	host, join := playProcesses(t, bin, "webrtc", 600, nil, nil)
	if host != join {
		t.Fatalf("the peers end apart:\nhost: %s\njoin: %s", host, join)
	}
	t.Logf("both peers: %s", host)
}
