// Package webrtc carries a match's datagrams over WebRTC data channels,
// so that a player in a web page can join a desktop host: a page cannot
// open a UDP socket, but it can open a data channel.
//
//	// The host: one UDP port for every peer, signalling on its TCP twin.
//	h, err := webrtc.Listen(":7777", webrtc.Config{})
//	pin := h.Pin() // goes in the join token
//
//	// A joiner, natively or in a page:
//	c, host, err := webrtc.Dial(ctx, "192.0.2.1:7777", pin, webrtc.Config{})
//	c.WriteTo(host, datagram)
//
// # Channels
//
// Each peer pair has one data channel, unordered and never retransmitted:
// a datagram arrives once, late or not at all, as over UDP, and the match
// above does its own resending and checking. The offerer opens it in band
// and the answerer takes it: pion applies a channel's settings to its
// SCTP stream only then, and kept a channel negotiated out of band
// ordered and reliable, so one lost packet held every message behind it. Natively pion's ICE runs every peer connection of an end on
// one UDP socket (its UDP mux), so a host needs one open port as for UDP.
// In a page (js/wasm) the link is the browser's own RTCPeerConnection,
// reached through syscall/js in one file: a page links nothing of pion,
// whose ICE, DTLS and SCTP the browser has already.
//
// # Signalling
//
// A host serves a WebSocket at ws://ADDR/metronome/webrtc ([Path]) on
// the TCP port of its UDP port's number. A joiner answers the host's
// random challenge with an HMAC keyed by the pin's key, in the same
// message as its offer; the host builds no peer connection, so starts no
// ICE, until that checks out. Candidates trickle both ways. The joiner
// accepts the answer only if its DTLS fingerprint is the pin's (the
// certificate is the host's own, made per session; DTLS then checks the
// certificate against the fingerprint), so nobody between them can
// answer in the host's place.
//
// Every message is JSON of at most [MaxMessage] bytes, checked whole
// before it is used; either side takes at most [MaxCandidates]
// candidates; the whole handshake must finish within Config.Timeout; a
// host runs at most Config.Handshakes at once and refuses more at once.
// Every refusal carries its reason to the other side (a "refuse"
// message and the WebSocket's close reason) and comes back from
// [Dial] as a *[Refusal]. A refused or stalled handshake touches
// nothing of the peers already joined.
//
// # Rooms
//
// Ends that met in a lobby room listen on nothing: a [RoomEnd] connects
// each peer with [RoomEnd.Connect] over [Signals], the lobby relaying the
// offer, answer and candidates (no challenge: the room admitted the
// peer, and DTLS holds the channel to the fingerprint in the relayed
// SDP). Package rollback/netplay/lobbynet does the meeting.
//
// # Paths
//
// Config lists STUN servers (none by default: loopback and LAN paths
// need none), TURN relays with their credentials ([TURNCredentials]
// makes coturn's time-limited ones) and Relay, which forces every path
// through a relay. A framework game sets them as each machine's [net]
// keys (stun, turn, turn_secret or turn_username and turn_password,
// ice_policy), which reach the network as netplay.ConduitOptions.ICE and
// are added to the game's Config ([Config.WithICE]); through a lobby,
// beside the lobby's TURN credentials. [RoomEnd.Path] says whether a
// connected peer's path is relayed and its round trip: natively from
// pion's selected pair, in a page from the browser's getStats. A page
// served over https may open only wss://
// connections, which a host's self-signed setup cannot serve: such
// pages join through a lobby with a real certificate; direct joining
// serves the page over http.
package webrtc
