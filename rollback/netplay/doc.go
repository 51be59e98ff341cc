// Package netplay carries a rollback match between processes: a host
// listens, joiners join with the token it prints, and each end gets a
// [Match], a [rollback.PeerWatcher]: the transport of its session's
// messages, with events for peers that drop and come back.
//
//	// The host (peer 0), over UDP:
//	udp := []netplay.Network{netplay.UDPNetwork()}
//	h, err := netplay.Host(":7777", netplay.Options{Players: 2, Networks: udp}, id)
//	fmt.Println("join with --token", h.Token())
//	m, err := h.Wait(ctx) // until every player has joined
//
//	// A joiner:
//	m, err := netplay.Join(ctx, "192.0.2.1:7777", token, netplay.Options{Networks: udp}, id)
//
//	// Either end, on the simulation goroutine, every update:
//	m.Send(peer, s.AppendMessage(msg[:0]))
//	for n, from, ok := m.Receive(buf); ok; n, from, ok = m.Receive(buf) {
//		s.ReceiveFrom(from, buf[:n]) // refuses a peer speaking for another
//	}
//	for e, ok := m.Event(); ok; e, ok = m.Event() { /* pause, resume */ }
//
// [Connect] does either in one call for a program that takes the role
// from its flags ([Hosting], [Dedicated], [Joining], [Spectating]): it
// waits its patience on the match's clock, tells the caller what to show
// on the way ([Notice]: the join command, the start) and returns a
// refused join as the match's outcome, [rollback.Refused].
//
// Peers are numbered 0 (the host) to Players-1 in the order the host
// accepts them; [Match.Self] says which one an end is. The match is a
// star: a joiner sends everything to the host, which relays what is for
// another joiner, so only the host's port must be reachable.
//
// # Transports
//
// A match runs over a [Network], chosen by name ([Options.Transport])
// among those the program links ([Options.Networks]). A network opens a
// [Conduit], which only moves datagrams to and from addresses; the match
// above it authenticates, orders and counts them, so a network of
// another package (WebRTC, a relay) implements those two interfaces and
// nothing of the protocol. A program links only the networks it lists,
// at least one: one that lists UDP alone links no TLS or QUIC, and one
// that never makes a match links no socket code. The
// match hands each network its [ConduitOptions], [Options.ICE] among
// them: the STUN and TURN servers and relay policy a network that finds
// its paths with ICE (WebRTC) uses and the others ignore.
//
// A network also carries the [Driver], embedded (struct{ Driver; ... }),
// as [UDPNetwork]'s and quicnet's do: the code that connects a program's
// match, names its simulation code for the match's identity, builds its
// side of it ([Driver.Play]: rollback's session, recording and end
// lines) and replays a match's recording. It speaks in package
// rollback's words (rollback.Meeting, rollback.Connected,
// rollback.Play, rollback.Identity), and package framework finds it on
// the networks a game lists, by its method set: framework imports no
// networking package, so a game that lists none links none of this
// package, no socket, no cryptography, none of rollback's sessions and
// no log/slog.
//
// [UDPNetwork] ([UDP]) sends each message in one UDP
// datagram ([net.UDPConn]) with a 10-byte header and a 16-byte MAC:
// nothing more on the wire, nothing between the simulation and the
// socket but one queue, no allocation per message, and nothing to go
// wrong in a handshake. It is authenticated, not encrypted: an observer
// on the path reads the inputs (which the peers' screens show anyway) but
// cannot forge, alter or replay a packet.
//
// Package rollback/netplay/quicnet's network ([QUIC]) sends the same
// packets as unreliable QUIC datagrams (RFC 9221, through quic-go) inside
// a TLS 1.3 connection: encrypted as well as authenticated, at the cost
// of about 25 more bytes a packet (QUIC's header, frame and AEAD tag), an
// allocation per datagram in quic-go, a handshake, and quic-go and
// crypto/tls in the binary. Choose it when the inputs must not be read on
// the way.
//
// Either way a match uses one UDP port at the host (the addr given to
// [Host]; open it in a firewall) and an ephemeral one at each joiner.
//
// # The join token
//
// The token is the transport's name, a colon and, in unpadded base64url,
// a version byte, the session's 16-byte random join secret and the
// network's pin (for QUIC, the certificate's 32-byte fingerprint):
// "udp:AQx3..." or "quic:AQx3...". It is a credential: anyone who has it can join, so
// give it only to the players. A new Host makes a new one.
//
// # What is checked
//
// Every packet, over both transports, carries a sequence number and an
// HMAC-SHA256 over all of it keyed by the join secret, truncated to 16
// bytes. A packet is dropped and counted in [Stats] (never queued, never
// answered beyond a bounded rate) when its MAC is wrong, when it comes
// from an address that holds no slot or claims a slot its address does
// not hold, when it does not decode, when its sequence number was seen
// before or is older than the last 64, or when it is more than 2^20
// ahead. Queues are bounded (256 messages waiting for Receive, 64
// events), so a flood costs drops, not memory.
//
// A join is refused, with a message the joiner's error carries
// ([ErrRefused]) and the host counts ([Stats].Refused) and logs
// ([Options.Log]), for a wrong token, a full match, a different
// [rollback.Identity] (game, version or configuration hash), a taken slot or, for
// a spectator, as many spectators as the host takes. A configuration
// refusal names each key of [rollback.Identity].Settings whose values differ, with
// the host's and the joiner's ("game.ship_speed: host 260, you 300"). The
// host logs each refused joiner once per address and reason, at most
// five lines a second, each saying how many refusals it left out. An
// answer to a join with a wrong token cannot be authenticated (the two
// sides share no key); the joiner believes it only as that refusal.
//
// [Stats] counts the match's packets (Sent, Received) and, apart, what
// the socket put on the wire (WireSent, WireReceived): every datagram
// with its IP and UDP headers and, over QUIC, QUIC's own packets.
//
// Nothing checks that the peers play fairly: every peer holds the secret
// and its own inputs. The host trusts no joiner to speak for another
// (each is bound to its address), but all of them are trusted with the
// match.
//
// # Starting together
//
// A match is full when the last player joins, but each peer then opens
// its window, warms its renderer and sets up its game, which takes each
// a different time. [Match.Ready] is the start line: every player's peer
// calls it just before its first tick, and it returns when that peer's
// clock should start. A joiner says it is ready every 25 ms until the
// host's go; the host waits until every joined, connected player is
// ready and it has a round trip to each (it pings them), then sends each
// the go with how long to wait after it, and starts half the longest
// round trip later, so that all clocks start within the jitter of one
// another and the first inputs arrive inside the prediction window.
//
// # Disconnects and reconnection
//
// Each end pings the others ten times per [Options.Timeout] (default 5s)
// for the round-trip time ([PeerStats].RTT). A peer silent for Timeout is
// [rollback.PeerDisconnected]; one that closes its match is
// [rollback.PeerLeft] (it says bye, or its QUIC connection ends). A dropped
// player's slot stays its: when its link comes back the peer is
// [rollback.PeerReconnected], and a player whose process ended joins again
// with [Options.Slot] set to its old peer number and takes the slot back
// (sequence numbers start from the date, so the old run's packets stay
// replays). A run that joins again at once, before the host has noticed
// the old one is gone, takes a slot whose player has been quiet two ping
// intervals (the one it asks for, or the quietest): the token says it is
// one of the match's players, and a live player is never that quiet; a
// join while that player is still heard is refused. A joiner hears of the other joiners through the host,
// whose pings say which peers it hears: their drops and returns reach it as
// Disconnected and Reconnected within a ping interval. A joiner that took a
// slot back in a match under way knows it ([Match.Rejoining]): its
// simulation starts behind the others, and catching it up
// (rollback.Session.NewFeed and a rollback.Follower) is the session's
// business, not the transport's. Join itself never hangs: it fails when the
// host does not answer within Timeout.
//
// A host may start the match before every player has joined
// ([Options.Start]): a player who joins later takes a slot no one played as
// a dropped player takes its own back, catching up ([Match.Rejoining]) but
// told it joins late ([Match.Late]), and the host reports it
// [rollback.PeerJoined]; [Match.Joined] says which slots someone took.
//
// # Spectators
//
// A joiner with [Options.Spectate] watches instead of playing: it joins
// with the same token, at any time during the match (in the lobby or long
// after it filled), takes the lowest free peer number from Players up
// ([Match.Spectator] tells them apart), and exchanges messages with the
// host only: nothing a player sends is relayed to it, and it can send to no
// player. The host takes up to [Options.Spectators] (default 16, at most
// 64) and refuses the next as it refuses a join to a full match. Its events
// carry Spectator set: [rollback.PeerJoined] when one arrives, then
// [rollback.PeerDisconnected] (silent for Timeout) or [rollback.PeerLeft];
// either way its peer number is free again and the players hear nothing of
// it. What the host sends a spectator (the confirmed inputs,
// rollback.Session.NewFeed) is the host's business.
//
// # A dedicated host
//
// A host needs nothing but this package and the rollback session: no
// window, GPU or audio device. A host that plays no seat listens for one
// peer more than the game has players and gives its session no player
// (rollback.Session.AddPeer on the players' side makes it their peer);
// package framework's --dedicated does this. [Match.Seating] maps the
// players onto the peers the same way at every end (a joiner knows a
// dedicated host by the peer count). It can run as a service on any
// machine with the port open.
//
// # Time
//
// Every decision a match takes in time (when to ping, when a peer is
// silent, a round trip, when to start, how long Join waits) reads
// [Options.Clock], and every wait is a waiter of that clock, woken by the
// packets it waits for. A test gives the match a timing.ManualClock and
// moves it: nothing in the package sleeps.
//
// # Goroutines
//
// A match owns one goroutine reading its socket and one pinging its
// peers on [Options.Clock] (over QUIC, two more per connection and one
// accepting them); [Match.Close] stops them all and waits for them. Send, Receive and Event belong to the simulation
// goroutine and never block; the other methods may be called from any
// goroutine.
package netplay
