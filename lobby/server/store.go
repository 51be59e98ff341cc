package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/metronome-go/metronome/lobby"
)

// The lobby's state, shared by every instance through one JetStream
// key-value bucket. Each record is JSON; every change to one is a
// compare-and-set on its revision, so instances never overwrite each
// other's updates, and a pairing changes the queue, the new room and every
// member's record in one atomic batch (JetStream's atomic publish), so no
// failure in the middle leaves a client taken from the queue but in no
// room. Reads go to each record's stream leader, not to a replica that may
// not have the last write yet.
const (
	bucket = "lobby" // "r.KXR4TQ" -> room, "q.<game hash>.<players>" -> queue, "c.<client id>" -> client
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
	ID string `json:"i"`
	// Conn names the connection that queued the client: the cleanup of an
	// older connection of a resumed client leaves the new one's entry be.
	Conn  string `json:"c"`
	Until int64  `json:"u"` // Unix nanoseconds; a later pairing skips the entry
}

// instanceGone is the instance of a client id given up: a resume that
// found no record leaves one, so that no late commit pairs the id.
const instanceGone = "-"

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
	kv      jetstream.KeyValue
	js      jetstream.JetStream
	nc      *nats.Conn
	commits atomic.Int64 // stored, for the tests
}

// openStore creates the bucket, or opens it when another instance did.
func openStore(ctx context.Context, nc *nats.Conn, js jetstream.JetStream, replicas int, roomTTL time.Duration) (*store, error) {
	fail := func(err error) (*store, error) {
		return nil, fmt.Errorf("lobby: the key-value bucket %s: %w", bucket, err)
	}
	if _, err := js.KeyValue(ctx, bucket); errors.Is(err, jetstream.ErrBucketNotFound) {
		// The bucket's TTL is only the collector of what nobody deleted;
		// a room's expiry is in its record. Another instance creating it
		// at the same moment is no failure.
		_, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:   bucket,
			History:  1,
			TTL:      roomTTL + time.Hour,
			Storage:  jetstream.MemoryStorage,
			Replicas: replicas,
		})
		if err != nil && !errors.Is(err, jetstream.ErrBucketExists) {
			return fail(err)
		}
	} else if err != nil {
		return fail(err)
	}
	// The key-value API makes buckets without atomic batches and with
	// direct reads, which any replica answers, however far behind.
	st, err := js.Stream(ctx, "KV_"+bucket)
	if err != nil {
		return fail(err)
	}
	if cfg := st.CachedInfo().Config; cfg.AllowDirect || !cfg.AllowAtomicPublish {
		cfg.AllowDirect, cfg.AllowAtomicPublish = false, true
		up, err := js.UpdateStream(ctx, cfg)
		if err != nil {
			return fail(err)
		}
		if !up.CachedInfo().Config.AllowAtomicPublish {
			return fail(errors.New("the NATS server has no atomic batch publish: NATS 2.12 or later is needed"))
		}
	}
	kv, err := js.KeyValue(ctx, bucket) // bound after the change: reads go to the leader
	if err != nil {
		return fail(err)
	}
	return &store{kv: kv, js: js, nc: nc}, nil
}

// write is one record of a [store.commit]: stored only if the key's
// revision is still rev (0: the key does not exist).
type write struct {
	key string
	val any
	rev uint64
}

// errConflict is a commit refused because a record changed since it was
// read; the caller reads again and retries.
var errConflict = errors.New("lobby: a record changed meanwhile")

// commit stores every write or none.
func (st *store) commit(ctx context.Context, ws []write) error {
	id := lobby.NewID()
	for i, w := range ws {
		b, err := json.Marshal(w.val)
		if err != nil {
			return err
		}
		m := nats.NewMsg("$KV." + bucket + "." + w.key)
		m.Data = b
		m.Header.Set("Nats-Batch-Id", id)
		m.Header.Set("Nats-Batch-Sequence", strconv.Itoa(i+1))
		m.Header.Set("Nats-Expected-Last-Subject-Sequence", strconv.FormatUint(w.rev, 10))
		if i < len(ws)-1 {
			if err := st.nc.PublishMsg(m); err != nil {
				return err
			}
			continue
		}
		m.Header.Set("Nats-Batch-Commit", "1")
		_, err = st.js.PublishMsg(ctx, m)
		if err == nil {
			st.commits.Add(1)
		}
		var api *jetstream.APIError
		if errors.As(err, &api) && (api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence || api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
			return errConflict
		}
		return err
	}
	return nil
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

// got is one record of [getAll].
type got[T any] struct {
	v     T
	rev   uint64
	found bool
}

// getAll reads the records at keys at once: a round of quick match reads
// one per client, and one after the other they would take a round trip
// each.
func getAll[T any](ctx context.Context, kv jetstream.KeyValue, keys []string) ([]got[T], error) {
	out := make([]got[T], len(keys))
	errs := make([]error, len(keys))
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	for i, k := range keys {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			out[i].v, out[i].rev, out[i].found, errs[i] = get[T](ctx, kv, k)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err // the others failed alike, as a rule
		}
	}
	return out, nil
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
