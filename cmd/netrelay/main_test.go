package main

import (
	"bytes"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback/netsim"
)

func listen(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The relay takes the first sender for its client, carries its datagrams
// to the server and the answers back, each way through its link's delay,
// and drops what another address sends. Loopback only.
func TestRelayCarriesBothWays(t *testing.T) {
	server := listen(t)
	defer server.Close()
	go func() { // echoes until the test closes it
		buf := make([]byte, 2048)
		for {
			n, from, err := server.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			server.WriteToUDPAddrPort(buf[:n], from)
		}
	}()
	front := listen(t)
	back, err := net.DialUDP("udp", nil, server.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	const latency = 20 * time.Millisecond
	up, err := netsim.NewLink(netsim.Options{Latency: latency, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	down, err := netsim.NewLink(netsim.Options{Latency: latency, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	quit := make(chan struct{})
	result := make(chan relayStats)
	go func() { result <- relay(front, back, up, down, quit) }()

	client, err := net.DialUDP("udp", nil, front.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	stranger, err := net.DialUDP("udp", nil, front.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()

	client.SetReadDeadline(time.Now().Add(30 * time.Second)) // a hang fails, never blocks the suite
	buf := make([]byte, 2048)
	const count = 10
	for i := range count {
		msg := []byte(fmt.Sprintf("datagram %d", i))
		sent := time.Now()
		if _, err := client.Write(msg); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			stranger.Write([]byte("not the client")) // after the client's first: dropped
		}
		n, err := client.Read(buf)
		if err != nil {
			t.Fatalf("datagram %d: no answer: %v", i, err)
		}
		if rtt := time.Since(sent); rtt < 2*latency {
			t.Errorf("datagram %d came back after %v, want at least twice the links' %v", i, rtt, latency)
		}
		if !bytes.Equal(buf[:n], msg) {
			t.Errorf("answer %q, want %q", buf[:n], msg)
		}
	}
	close(quit)
	st := <-result
	if st.up.Delivered != count || st.down.Delivered != count || st.strangers != 1 {
		t.Errorf("delivered %d up and %d down, %d from strangers; want %d, %d and 1", st.up.Delivered, st.down.Delivered, st.strangers, count, count)
	}
}
