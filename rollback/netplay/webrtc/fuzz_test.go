package webrtc

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzDecodeMessage: any bytes decode to a checked message or a clear
// error, never a panic, and a message that decodes encodes back to one
// that decodes the same.
func FuzzDecodeMessage(f *testing.F) {
	f.Add([]byte(`{"t":"challenge","nonce":"AAAAAAAAAAAAAAAAAAAAAA=="}`))
	f.Add([]byte(`{"t":"offer","proof":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","sdp":"v=0\r\n"}`))
	f.Add([]byte(`{"t":"answer","sdp":"v=0\r\na=fingerprint:sha-256 00:11\r\n"}`))
	f.Add([]byte(`{"t":"candidate","c":"candidate:1 1 udp 1 127.0.0.1 5000 typ host","mid":"0"}`))
	f.Add([]byte(`{"t":"refuse","reason":"wrong token"}`))
	f.Add([]byte(`{"t":"offer",`))
	f.Add([]byte(`{"t":"refuse","reason":"x"}{"t":"refuse"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeMessage(b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "webrtc: bad signalling message: ") {
				t.Fatalf("error %q does not say what it is about", err)
			}
			return
		}
		again, err := decodeMessage(m.encode())
		if err != nil {
			t.Fatalf("%s decodes, but its encoding does not: %v", b, err)
		}
		if again.Type != m.Type || !bytes.Equal(again.Nonce, m.Nonce) || !bytes.Equal(again.Proof, m.Proof) || again.SDP != m.SDP || again.Candidate != m.Candidate || again.Mid != m.Mid || again.Reason != m.Reason {
			t.Fatalf("%+v encodes and decodes to %+v", m, again)
		}
	})
}

// FuzzSDPFingerprint: any SDP yields one fingerprint or an error, never a
// panic, and a fingerprint read back from its own line is itself.
func FuzzSDPFingerprint(f *testing.F) {
	var fp [printLen]byte
	for i := range fp {
		fp[i] = byte(i * 7)
	}
	f.Add("v=0\r\na=fingerprint:sha-256 " + formatFingerprint(fp) + "\r\n")
	f.Add("a=fingerprint:sha-1 00:11\n")
	f.Add("a=fingerprint:sha-256 zz\n")
	f.Fuzz(func(t *testing.T, sdp string) {
		got, err := sdpFingerprint(sdp)
		if err != nil {
			return
		}
		again, err := sdpFingerprint("a=fingerprint:sha-256 " + formatFingerprint(got) + "\n")
		if err != nil || again != got {
			t.Fatalf("%x reads back as %x, %v", got, again, err)
		}
	})
}

func TestSDPFingerprintRefusesTwoPrints(t *testing.T) {
	var a, b [printLen]byte
	b[0] = 1
	sdp := "a=fingerprint:sha-256 " + formatFingerprint(a) + "\r\nm=application\r\na=fingerprint:sha-256 " + formatFingerprint(b) + "\r\n"
	if _, err := sdpFingerprint(sdp); err == nil || !strings.Contains(err.Error(), "two different") {
		t.Fatalf("error %v; want two different fingerprints refused", err)
	}
}
