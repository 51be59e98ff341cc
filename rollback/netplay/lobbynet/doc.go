// Package lobbynet is how a game's ends meet through a lobby (package
// lobby, cmd/lobby) and then play over WebRTC: by a room code one of them
// created, or by quick match. The lobby carries only the WebRTC offers,
// answers and candidates, as its opaque signal payloads, and hands each
// end TURN credentials that go into the ends' [webrtc.Config]; no end
// listens on a port, so a page can hold a room's first seat.
//
//	m, err := lobbynet.Meet(ctx, lobbynet.Options{
//		Lobby: "ws://127.0.0.1:7000", Game: id, Create: true, Players: 2,
//		Status: func(line string) { log.Print(line) }, // "room KXR-4TQ: ..."
//	})
//	m.WriteTo(datagram, m.Peers[1])
//
// # Who plays
//
// The room authenticates its peers: the lobby relays signals only
// between clients holding a seat in it, got by its code (which a player
// passes on out of band) or, for seat 0, by the room's secret. Each
// end's DTLS fingerprint travels in its SDP through the lobby and DTLS
// checks the certificate against it, so a channel ends at the client
// the lobby introduced and at no one in between. The lobby is trusted
// to introduce the right clients (reach it over wss:// with a real
// certificate off a LAN), and the match's own handshake still checks
// that both ends run the same game and configuration.
//
// # In a framework game
//
// [NewNetplay] is the lobby path a framework game lists
// (framework.Net.Lobby), behind --lobby, --room, --create and --quick
// and --dedicated --lobby: [Netplay.Meet] meets as [Meet] does and then
// plays a netplay match over the room's channels, seat 0 hosting it and
// handing the others its join token through the lobby; a meeting whose
// role is rollback.Dedicated waits as a dedicated host
// ([Options].Dedicated) for the next quick match of the game to fill.
// It speaks in package rollback's words (rollback.Meeting in,
// rollback.Connected out), so framework names no netplay type. The
// match's own ICE settings (rollback.MatchOptions.ICE, a game's [net]
// stun, turn and ice_policy keys)
// join the path's Config and the lobby's TURN credentials, so
// ice_policy "relay" forces a room's paths through the lobby's relay.
//
// # What a player sees
//
// Meet reports each step as a line through Options.Status: the room
// code to read aloud, waiting for players, the room found, connecting,
// and each peer connected (direct or relayed). A failure is an *[Error]
// whose [Reason] says which: the room is unknown or expired, full, or
// for another game or configuration; the lobby is unreachable; no path
// to a peer even through the relay.
package lobbynet
