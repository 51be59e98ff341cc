// Package server is the lobby: an http.Handler ([Server]) that takes the
// WebSocket connections of package lobby's clients, and keeps every room,
// queue and client in NATS JetStream key-value buckets, so any number of
// instances on one NATS system serve one player base.
//
//	ns, _ := server.StartNATS(server.NATSOptions{})  // or server.Connect(url, name)
//	nc, _ := server.ConnectEmbedded(ns, "lobby")
//	s, _ := server.New(ctx, server.Options{NATS: nc, TURNSecret: secret, TURNURLs: urls})
//	http.ListenAndServe(":7000", s)
//
// # State
//
// One bucket, lobby, created by the first instance, holds four kinds of
// record: a room's game, seats, hashed host secret and expiry (r.<code>);
// the clients waiting for a quick match, by a hash of the game and the
// player count (q.<hash>.<players>); and a client's hashed resume secret,
// its room or queue and the instance that holds it (c.<id>); the signals
// kept for a client nobody held when they came (s.<id>). Every change
// is a compare-and-set on the record's revision, and a pairing writes the
// queue, the new room and every member's record in one atomic batch, so a
// client is never handed to two rooms, nor taken from the queue and left
// in none when an instance dies in the middle. An instance pairs the
// requests of one queue in rounds: every request that arrives while a
// round is being stored goes into the next one, which makes one commit,
// so a busy instance writes the queue's record once per round, not once
// per client. Reads go to the bucket's
// stream leader, which has every acknowledged write. The bucket lives in
// the NATS servers' memory, [Options.Replicas] times: rooms last an hour,
// and a cluster of three keeps them through the loss of one server.
//
// Each client's events travel on the NATS subject lobby.c.<client id>, to
// which the instance holding the client subscribes. An event that does
// not arrive (the instance that paired the client died first) is in the
// client's record, which its instance reads at the next ping, and a
// resuming client's new instance reads when it takes it over; an event
// that arrives during a resume waits until the resume's welcome and room
// or waiting event are sent, since a client takes anything ahead of its
// welcome for the old connection's. A signal
// is relayed as a NATS request that the peer's instance answers once the
// signal is queued for the peer; unanswered (no instance holds the peer,
// or its instance is cut off from NATS), it is kept in the peer's mailbox
// record (s.<client id>) and handed over after the room event by the
// instance that takes the peer next. A signal may so arrive twice, but
// is not lost.
//
// # Limits
//
// Per address: wrong codes and secrets ([Options.Guesses]) and room
// creations ([Options.Creations]). Per connection: frames of at most
// lobby.MaxFrame bytes (1009 past it), three malformed messages in a row,
// 32 events queued for a client that does not read, and a ping every
// [Options.PingEvery] that must be answered before the next. Per instance:
// [Options.MaxClients]. The limits are an instance's own; behind a load
// balancer with N instances an address gets at most N times them.
package server
