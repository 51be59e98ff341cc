package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The lobby's state, shared by every instance through three JetStream
// key-value buckets. Each record is JSON; every change to one is a
// compare-and-set on its revision, so instances never overwrite each
// other's updates.
const (
	bucketRooms   = "lobby_rooms"   // "r.KXR4TQ" -> room
	bucketQueues  = "lobby_queues"  // "q.<game hash>.<players>" -> queue
	bucketClients = "lobby_clients" // "c.<client id>" -> client
	// subjectClient prefixes the subject each client's events are
	// published on; the instance that holds the client subscribes to it.
	subjectClient = "lobby.c."
	// casTries bounds the retries of one compare-and-set under contention.
	casTries = 64
)

// room is a room's record.
type room struct {
	Game    string   `json:"g"`
	Players int      `json:"n"`
	Seats   []string `json:"s"` // client ids by seat; "" is a free seat
	Secret  string   `json:"h"` // SHA-256 of the host's secret, hex
	Expires int64    `json:"e"` // Unix nanoseconds
}

// queue is the quick-match queue of one game and player count.
type queue struct {
	Waiting []waiting `json:"w"`
}

type waiting struct {
	ID    string `json:"i"`
	Until int64  `json:"u"` // Unix nanoseconds; a later pairing skips the entry
}

// client is what another instance needs to take a client over.
type client struct {
	Secret   string `json:"h"` // SHA-256 of the resume secret, hex
	Instance string `json:"i"`
	Room     string `json:"r,omitempty"` // the room's code
	Queue    string `json:"q,omitempty"` // the queue key while waiting
	Game     string `json:"g,omitempty"` // what it queued for, to queue again
	Players  int    `json:"n,omitempty"`
}

type store struct {
	rooms, queues, clients jetstream.KeyValue
}

// openStore creates the buckets, or opens them when another instance did.
func openStore(ctx context.Context, js jetstream.JetStream, replicas int, roomTTL time.Duration) (*store, error) {
	mk := func(name string, ttl time.Duration) (jetstream.KeyValue, error) {
		kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:   name,
			History:  1,
			TTL:      ttl,
			Storage:  jetstream.MemoryStorage,
			Replicas: replicas,
		})
		if err != nil {
			return nil, fmt.Errorf("lobby: the key-value bucket %s: %w", name, err)
		}
		return kv, nil
	}
	var s store
	var err error
	// The buckets' own TTL is only the collector of what nobody deleted;
	// a room's expiry is in its record.
	if s.rooms, err = mk(bucketRooms, roomTTL+time.Hour); err != nil {
		return nil, err
	}
	if s.queues, err = mk(bucketQueues, 0); err != nil {
		return nil, err
	}
	if s.clients, err = mk(bucketClients, roomTTL+time.Hour); err != nil {
		return nil, err
	}
	return &s, nil
}

func roomKey(code string) string { return "r." + strings.ReplaceAll(code, "-", "") }

// queueKey keys a queue by a hash of the game's identity, which can hold
// characters a key may not.
func queueKey(game string, players int) string {
	h := sha256.Sum256([]byte(game))
	return fmt.Sprintf("q.%s.%d", hex.EncodeToString(h[:16]), players)
}

func hashSecret(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func secretMatches(hash, secret string) bool {
	return subtle.ConstantTimeCompare([]byte(hash), []byte(hashSecret(secret))) == 1
}

// get reads a record; found is false when the key does not exist.
func get[T any](ctx context.Context, kv jetstream.KeyValue, key string) (v T, rev uint64, found bool, err error) {
	e, err := kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return v, 0, false, nil
	}
	if err != nil {
		return v, 0, false, err
	}
	if err := json.Unmarshal(e.Value(), &v); err != nil {
		return v, 0, false, fmt.Errorf("lobby: record %s: %w", key, err)
	}
	return v, e.Revision(), true, nil
}

// errStop ends an update without writing; the update returns it.
var errStop = errors.New("no change")

// update applies change to the record at key and writes it back if nobody
// wrote in between, trying again otherwise. change sees found false and a
// zero value for a missing key, and returns errStop (or another error) to
// write nothing.
func update[T any](ctx context.Context, kv jetstream.KeyValue, key string, change func(v *T, found bool) error) (T, error) {
	for range casTries {
		v, rev, found, err := get[T](ctx, kv, key)
		if err != nil {
			return v, err
		}
		if err := change(&v, found); err != nil {
			return v, err
		}
		b, _ := json.Marshal(v)
		if found {
			_, err = kv.Update(ctx, key, b, rev)
		} else {
			_, err = kv.Create(ctx, key, b)
		}
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists) {
			continue
		}
		return v, err
	}
	var zero T
	return zero, fmt.Errorf("lobby: record %s: %d writers in a row got there first", key, casTries)
}
