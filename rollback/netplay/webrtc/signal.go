package webrtc

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The signalling exchange, one JSON object per WebSocket text message:
//
//	host   → joiner  {"t":"challenge","nonce":"…"}
//	joiner → host    {"t":"offer","proof":"…","sdp":"…"}   proof = HMAC of the nonce
//	host   → joiner  {"t":"answer","sdp":"…"}
//	either → other   {"t":"candidate","c":"candidate:…","mid":"0"}
//	either → other   {"t":"refuse","reason":"…"}
//
// The host builds no peer connection, so starts no ICE, before the proof
// checks out. Sizes and counts are bounded so that a garbled or hostile
// peer costs the host little.
const (
	msgChallenge = "challenge"
	msgOffer     = "offer"
	msgAnswer    = "answer"
	msgCandidate = "candidate"
	msgRefuse    = "refuse"

	nonceLen = 16
	proofLen = sha256.Size
	keyLen   = 16
	printLen = sha256.Size

	// MaxMessage is the largest signalling message either side reads, in
	// bytes: a browser's offer is 1 to 3 KB.
	MaxMessage = 16 << 10
	maxSDP     = MaxMessage - 512
	// MaxCandidates is how many candidates either side takes from the
	// other in one handshake.
	MaxCandidates = 32
	maxCandidate  = 512
	maxMid        = 16
	maxReason     = 200
)

// errSignal is wrapped by every error about a signalling message that
// does not decode.
var errSignal = errors.New("webrtc: bad signalling message")

type message struct {
	Type      string `json:"t"`
	Nonce     []byte `json:"nonce,omitempty"`
	Proof     []byte `json:"proof,omitempty"`
	SDP       string `json:"sdp,omitempty"`
	Candidate string `json:"c,omitempty"`
	Mid       string `json:"mid,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// decodeMessage reads one signalling message and checks it whole: a known
// type, the fields of that type and no others, each within its bound.
func decodeMessage(b []byte) (message, error) {
	var m message
	if len(b) > MaxMessage {
		return m, fmt.Errorf("%w: %d bytes; allowed: up to %d", errSignal, len(b), MaxMessage)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return message{}, fmt.Errorf("%w: not a signalling object (%v)", errSignal, err)
	}
	if d.More() {
		return message{}, fmt.Errorf("%w: more than one object", errSignal)
	}
	return m, m.check()
}

func (m message) check() error {
	var extra []string
	if m.Type != msgChallenge && m.Nonce != nil {
		extra = append(extra, "nonce")
	}
	if m.Type != msgOffer && m.Proof != nil {
		extra = append(extra, "proof")
	}
	if m.Type != msgOffer && m.Type != msgAnswer && m.SDP != "" {
		extra = append(extra, "sdp")
	}
	if m.Type != msgCandidate && (m.Candidate != "" || m.Mid != "") {
		extra = append(extra, "c/mid")
	}
	if m.Type != msgRefuse && m.Reason != "" {
		extra = append(extra, "reason")
	}
	if len(extra) > 0 {
		return fmt.Errorf("%w: %q carries %s", errSignal, m.Type, strings.Join(extra, ", "))
	}
	switch m.Type {
	case msgChallenge:
		if len(m.Nonce) != nonceLen {
			return fmt.Errorf("%w: a nonce of %d bytes; want %d", errSignal, len(m.Nonce), nonceLen)
		}
	case msgOffer, msgAnswer:
		if m.Type == msgOffer && len(m.Proof) != proofLen {
			return fmt.Errorf("%w: a proof of %d bytes; want %d", errSignal, len(m.Proof), proofLen)
		}
		if m.SDP == "" || len(m.SDP) > maxSDP {
			return fmt.Errorf("%w: an %s's SDP of %d bytes; allowed: 1 to %d", errSignal, m.Type, len(m.SDP), maxSDP)
		}
	case msgCandidate:
		if !strings.HasPrefix(m.Candidate, "candidate:") || len(m.Candidate) > maxCandidate {
			return fmt.Errorf("%w: a candidate must start with \"candidate:\" and be up to %d bytes", errSignal, maxCandidate)
		}
		if len(m.Mid) > maxMid {
			return fmt.Errorf("%w: a mid of %d bytes; allowed: up to %d", errSignal, len(m.Mid), maxMid)
		}
	case msgRefuse:
		if len(m.Reason) > maxReason {
			return fmt.Errorf("%w: a reason of %d bytes; allowed: up to %d", errSignal, len(m.Reason), maxReason)
		}
	default:
		return fmt.Errorf("%w: type %q; allowed: challenge, offer, answer, candidate, refuse", errSignal, m.Type)
	}
	return nil
}

func (m message) encode() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic("webrtc: " + err.Error()) // strings and byte slices always marshal
	}
	return b
}

// proof is what a joiner answers the host's nonce with: it shows the
// joiner holds the token without sending the token itself.
func proof(key [keyLen]byte, nonce []byte) []byte {
	h := hmac.New(sha256.New, key[:])
	h.Write([]byte("metronome webrtc join\x00"))
	h.Write(nonce)
	return h.Sum(nil)
}

// errFingerprint is wrapped when an SDP's DTLS fingerprint is missing,
// malformed or not the one the token names.
var errFingerprint = errors.New("webrtc: DTLS fingerprint")

// sdpFingerprint returns the SHA-256 DTLS fingerprint an SDP declares.
// Every a=fingerprint line (session and media level) must be SHA-256 and
// agree: a certificate that could be either of two is not pinned.
func sdpFingerprint(sdp string) ([printLen]byte, error) {
	var fp [printLen]byte
	found := false
	for line := range strings.Lines(sdp) {
		line = strings.TrimRight(line, "\r\n")
		v, ok := strings.CutPrefix(line, "a=fingerprint:")
		if !ok {
			continue
		}
		alg, hexs, _ := strings.Cut(v, " ")
		if !strings.EqualFold(alg, "sha-256") {
			return fp, fmt.Errorf("%w: algorithm %q; allowed: sha-256", errFingerprint, alg)
		}
		var got [printLen]byte
		if err := parseHexPairs(got[:], strings.TrimSpace(hexs)); err != nil {
			return fp, fmt.Errorf("%w: %v", errFingerprint, err)
		}
		if found && got != fp {
			return fp, fmt.Errorf("%w: the SDP declares two different fingerprints", errFingerprint)
		}
		fp, found = got, true
	}
	if !found {
		return fp, fmt.Errorf("%w: the SDP has no a=fingerprint line", errFingerprint)
	}
	return fp, nil
}

// parseHexPairs reads "AB:CD:…" into dst, exactly len(dst) bytes.
func parseHexPairs(dst []byte, s string) error {
	if len(s) != 3*len(dst)-1 {
		return fmt.Errorf("%d characters; want %d hex pairs separated by colons", len(s), len(dst))
	}
	for i := range dst {
		if i > 0 && s[3*i-1] != ':' {
			return fmt.Errorf("no colon at character %d", 3*i-1)
		}
		if _, err := hex.Decode(dst[i:i+1], []byte(s[3*i:3*i+2])); err != nil {
			return fmt.Errorf("not hex at character %d", 3*i)
		}
	}
	return nil
}

// formatFingerprint writes a fingerprint as SDP does.
func formatFingerprint(fp [printLen]byte) string {
	var b strings.Builder
	for i, c := range fp {
		if i > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%02X", c)
	}
	return b.String()
}
