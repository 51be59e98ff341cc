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
// Three buckets, created by the first instance: lobby_rooms (a room's game,
// seats, hashed host secret and expiry, by code), lobby_queues (the clients
// waiting for a quick match, by a hash of the game and the player count)
// and lobby_clients (a client's hashed resume secret, its room or queue and
// the instance that holds it). Every change is a compare-and-set on the
// record's revision, so two instances pairing from one queue never hand a
// client to two rooms. The buckets live in the NATS servers' memory,
// [Options.Replicas] times: rooms last an hour, and a cluster of three
// keeps them through the loss of one server.
//
// Each client's events travel on the NATS subject lobby.c.<client id>, to
// which the instance holding the client subscribes. An instance that pairs
// or joins a client writes its record before it publishes the event, and
// an instance resuming a client subscribes before it reads the record, so
// an event lost while the client moved is found in the record.
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
