package a2anats

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync/atomic"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Defaults of the JetStream resources a Relay uses; every replica of one
// program must use the same.
const (
	// DefaultBucket is the KV bucket of held waits.
	DefaultBucket = "a2a_push_waits"
	// DefaultStream is the stream of passed notifications.
	DefaultStream = "A2A_PUSH_RELAY"
	// DefaultSubject is the prefix of the stream's subjects: a replica's
	// notifications go to DefaultSubject + "." + its name.
	DefaultSubject = "a2a.push.relay"
	// DefaultMaxAge is how long a record of a wait without a deadline,
	// and a passed notification nobody takes, are kept at most.
	DefaultMaxAge = 24 * time.Hour
	// DefaultMaxDeliver is how many times a passed notification is
	// delivered to its holder, at most, before it is dropped.
	DefaultMaxDeliver = 100
)

// maxRedeliver caps the delay before a notification whose delivery
// failed is delivered again: the delay doubles from [RedeliverAfter] at
// each failure, up to a minute.
const maxRedeliver = time.Minute

// keyHeader is the header of a passed notification that carries its key
// (hex).
const keyHeader = "A2A-Push-Key"

// replicaName is what a replica's name may be: a subject token, a KV value
// and a consumer name alike.
var replicaName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Relay is an [a2a.PushRelay] on NATS JetStream for one replica, named
// when made: the waits the replicas hold are the entries of a KV bucket
// (the key is the hex SHA-256 of a wait's token, the value the holder's
// name, the task id and the deadline: never the token), and the
// notifications passed to a replica are the messages of its subject in a
// work-queue stream, read by a durable consumer of its name, which
// JetStream keeps while the replica is down; a message is acknowledged
// (and removed) once the receiver's deliver func returned nil. Its
// methods are safe for concurrent use. It needs a NATS server with
// JetStream enabled.
type Relay struct {
	js        jetstream.JetStream
	kv        jetstream.KeyValue
	stream    jetstream.Stream
	name      string
	subject   string
	kvSubject string // the prefix of the bucket's subjects
	redeliver time.Duration
	maxAge    time.Duration
	maxDel    int

	listening atomic.Bool // a Listen runs
}

// Option configures a [Relay].
type Option func(*config) error

type config struct {
	bucket, stream, subject string
	replicas                int
	redeliver, maxAge       time.Duration
	maxDeliver              int
	markerTTL               time.Duration
}

// Bucket names the KV bucket of held waits (default [DefaultBucket]).
func Bucket(name string) Option {
	return func(c *config) error {
		if name == "" {
			return errors.New("a2anats: Bucket: empty name")
		}
		c.bucket = name
		return nil
	}
}

// Stream names the stream of passed notifications (default
// [DefaultStream]) and the prefix of its subjects (default
// [DefaultSubject]).
func Stream(name, subject string) Option {
	return func(c *config) error {
		if name == "" || subject == "" {
			return errors.New("a2anats: Stream: empty name or subject")
		}
		c.stream, c.subject = name, subject
		return nil
	}
}

// Replicas sets how many NATS servers of a cluster keep the bucket and the
// stream (default 1), when New creates them.
func Replicas(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("a2anats: Replicas %d is not positive", n)
		}
		c.replicas = n
		return nil
	}
}

// RedeliverAfter sets how long a passed notification whose delivery failed
// (the holder could not take it yet) waits before it is delivered again
// (default 1 second).
func RedeliverAfter(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("a2anats: RedeliverAfter %v is not positive", d)
		}
		c.redeliver = d
		return nil
	}
}

// MaxAge sets how long the relay keeps, at most, a record of a wait
// whose context has no deadline (one with a deadline is kept until its
// deadline, at most d too) and a passed notification that nobody took
// (default [DefaultMaxAge], 24 hours): it is the bucket's and the
// stream's MaxAge, so that the records of a replica that never resumes
// them (restarted without [a2a.PushReceiver.Resume], or a name never
// used again) end. A wait that outlives it is no longer known to the
// other replicas (a notification for it that lands on one is answered
// 401), nor resumed after a restart. d is rounded up to a second.
func MaxAge(d time.Duration) Option {
	return func(c *config) error {
		if d < time.Second {
			return fmt.Errorf("a2anats: MaxAge %v is less than a second", d)
		}
		c.maxAge = d.Round(time.Second)
		if c.maxAge < d {
			c.maxAge += time.Second
		}
		return nil
	}
}

// MaxDeliver sets how many times, at most, a passed notification is
// delivered to its holder (default [DefaultMaxDeliver], 100): one whose
// delivery fails that many times is dropped. The delay between two
// deliveries doubles from [RedeliverAfter] up to a minute, so that by
// default a notification is tried for about an hour and a half of the
// holder's uptime (the time it is down does not count) before it is
// dropped: long enough for a replica restarted to call Resume, or a
// PushOnNotification that fails to recover, and an end to one held by a
// replica that never resumes (whose deliveries fail for ever).
func MaxDeliver(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("a2anats: MaxDeliver %d is not positive", n)
		}
		c.maxDeliver = n
		return nil
	}
}

// New returns the relay of the replica named replica (1 to 64 letters,
// digits, '-' or '_'; unique among the replicas, and the same across a
// replica's restarts) on nc, creating the bucket and the stream if they do
// not exist yet (or updating their limits, [MaxAge], if they do). It
// does not close nc. Errors: a name that is not valid, an
// option's error, and JetStream's (JetStream not enabled, the server
// unreachable, ctx's end).
func New(ctx context.Context, nc *nats.Conn, replica string, opts ...Option) (*Relay, error) {
	if !replicaName.MatchString(replica) {
		return nil, fmt.Errorf("a2anats: replica name %q is not 1 to 64 letters, digits, '-' or '_'", replica)
	}
	cfg := config{bucket: DefaultBucket, stream: DefaultStream, subject: DefaultSubject, replicas: 1, redeliver: time.Second,
		maxAge: DefaultMaxAge, maxDeliver: DefaultMaxDeliver, markerTTL: markerTTL}
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("a2anats: nil Option")
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("a2anats: %w", err)
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: cfg.bucket, History: 1,
		Storage: jetstream.FileStorage, Replicas: cfg.replicas, LimitMarkerTTL: cfg.markerTTL, TTL: cfg.maxAge})
	if err != nil {
		return nil, fmt.Errorf("a2anats: bucket %s: %w", cfg.bucket, err)
	}
	st, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: cfg.stream, Subjects: []string{cfg.subject + ".>"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: cfg.replicas, MaxAge: cfg.maxAge})
	if err != nil {
		return nil, fmt.Errorf("a2anats: stream %s: %w", cfg.stream, err)
	}
	return &Relay{js: js, kv: kv, stream: st, name: replica, subject: cfg.subject, redeliver: cfg.redeliver,
		kvSubject: "$KV." + cfg.bucket + ".", maxAge: cfg.maxAge, maxDel: cfg.maxDeliver}, nil
}

// Name returns the replica's name.
func (r *Relay) Name() string { return r.name }

// record is a KV entry's value.
type record struct {
	Replica  string    `json:"replica"`
	TaskID   string    `json:"task_id,omitempty"`
	Deadline time.Time `json:"deadline,omitzero"`
}

// Hold records that this replica holds w (a put of its key), for the
// time left until w.Deadline, at most [MaxAge]: JetStream removes the
// record then, held or not (a minute after it was put at the earliest:
// JetStream keeps a record as long as a release's marker at least).
// Errors: JetStream's publish errors (the server unreachable, ctx's end),
// wrapped.
func (r *Relay) Hold(ctx context.Context, w a2a.HeldWait) error {
	v, err := json.Marshal(record{Replica: r.name, TaskID: w.TaskID, Deadline: w.Deadline})
	if err != nil {
		return fmt.Errorf("a2anats: hold: %w", err)
	}
	// A KV Put cannot set a TTL (Create can, but not for an update): the
	// record is published to the key's subject, as Put does, with one.
	ttl := r.maxAge
	if !w.Deadline.IsZero() {
		ttl = min(ttl, max(time.Until(w.Deadline), time.Second))
	}
	if _, err := r.js.Publish(ctx, r.kvSubject+hex.EncodeToString(w.Key[:]), v, jetstream.WithMsgTTL(ttl)); err != nil {
		return fmt.Errorf("a2anats: hold: %w", err)
	}
	return nil
}

// markerTTL is how long the marker a Release (or a record's expiry)
// leaves in the bucket is kept, so that the bucket does not grow with
// every wait ever held. JetStream keeps a record a marker's TTL at least.
const markerTTL = time.Minute

// Release drops the record of key (a purge of its key, whose marker goes
// a minute later). A key not held is no error. Errors: JetStream's,
// wrapped.
func (r *Relay) Release(ctx context.Context, key [32]byte) error {
	if err := r.kv.Purge(ctx, hex.EncodeToString(key[:]), jetstream.PurgeTTL(markerTTL)); err != nil {
		return fmt.Errorf("a2anats: release: %w", err)
	}
	return nil
}

// Held returns the records this replica holds, read in one pass over the
// bucket; entries that do not decode or are another replica's are
// skipped. Errors: ctx's end (with its cause), the bucket's watch
// stopping before its initial values were read, JetStream's; wrapped.
func (r *Relay) Held(ctx context.Context) ([]a2a.HeldWait, error) {
	wt, err := r.kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("a2anats: held: %w", err)
	}
	defer wt.Stop()
	var held []a2a.HeldWait
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("a2anats: held: %w", context.Cause(ctx))
		case e, ok := <-wt.Updates():
			if !ok {
				return nil, errors.New("a2anats: held: the watch stopped")
			}
			if e == nil { // the initial values are all in
				return held, nil
			}
			rec, key, err := decodeEntry(e)
			if err != nil || rec.Replica != r.name {
				continue // another's, or not one of ours
			}
			held = append(held, a2a.HeldWait{Key: key, TaskID: rec.TaskID, Deadline: rec.Deadline})
		}
	}
}

// decodeEntry reads a KV entry.
func decodeEntry(e jetstream.KeyValueEntry) (rec record, key [32]byte, err error) {
	if err = decodeKey(e.Key(), &key); err != nil {
		return rec, key, err
	}
	err = json.Unmarshal(e.Value(), &rec)
	return rec, key, err
}

// decodeKey reads a hex key.
func decodeKey(s string, key *[32]byte) error {
	if len(s) != 2*len(key) {
		return fmt.Errorf("a2anats: key of %d characters", len(s))
	}
	_, err := hex.Decode(key[:], []byte(s))
	return err
}

// Holder returns the name of the replica that holds key. Errors: one
// wrapping [a2a.ErrWaitNotHeld] when no replica does; a record that is not
// one of a2anats's; JetStream's, wrapped.
func (r *Relay) Holder(ctx context.Context, key [32]byte) (string, error) {
	e, err := r.kv.Get(ctx, hex.EncodeToString(key[:]))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", fmt.Errorf("a2anats: %w", a2a.ErrWaitNotHeld)
	}
	if err != nil {
		return "", fmt.Errorf("a2anats: holder: %w", err)
	}
	var rec record
	if err := json.Unmarshal(e.Value(), &rec); err != nil || !replicaName.MatchString(rec.Replica) {
		return "", errors.New("a2anats: holder: the record is not one of a2anats")
	}
	return rec.Replica, nil
}

// Pass publishes n to the subject of replica and returns once JetStream
// has stored it. Errors: a replica name that is not valid, a body larger
// than [Relay.MaxBody] (wrapping [ErrBodyTooLarge]), and JetStream's.
func (r *Relay) Pass(ctx context.Context, replica string, n a2a.RelayedNotification) error {
	if !replicaName.MatchString(replica) {
		return fmt.Errorf("a2anats: pass: replica name %q is not valid", replica)
	}
	if err := r.checkPass(n); err != nil {
		return err
	}
	m := nats.NewMsg(r.subject + "." + replica)
	m.Header.Set(keyHeader, hex.EncodeToString(n.Key[:]))
	m.Data = n.Body
	if _, err := r.js.PublishMsg(ctx, m); err != nil {
		return fmt.Errorf("a2anats: pass: %w", err)
	}
	return nil
}

// Listen consumes the notifications passed to this replica with its
// durable consumer (created if need be) until ctx ends, and returns nil
// then; it returns an error when the consumer cannot be set up. A message is
// acknowledged once deliver returned nil, delivered again otherwise after
// a delay that doubles from [RedeliverAfter] at each failure up to a
// minute, and dropped (terminated) when it does not carry a key or its
// delivery failed [MaxDeliver] times. Only one Listen of a Relay runs at
// a time: a second returns an error.
func (r *Relay) Listen(ctx context.Context, deliver func(ctx context.Context, n a2a.RelayedNotification) error) error {
	if !r.listening.CompareAndSwap(false, true) {
		return errors.New("a2anats: listen: already listening")
	}
	defer r.listening.Store(false)
	cons, err := r.stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: r.name,
		FilterSubject: r.subject + "." + r.name, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
		MaxDeliver: r.maxDel})
	if err != nil {
		if ctx.Err() != nil {
			return nil // its end, not a failure
		}
		return fmt.Errorf("a2anats: listen: %w", err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		var n a2a.RelayedNotification
		if decodeKey(m.Headers().Get(keyHeader), &n.Key) != nil {
			m.Term()
			return
		}
		n.Body = m.Data()
		if deliver(ctx, n) != nil {
			tries := 1
			if md, err := m.Metadata(); err == nil {
				tries = int(min(md.NumDelivered, uint64(r.maxDel)))
			}
			if tries >= r.maxDel {
				m.Term() // the last delivery: removed from the work queue
				return
			}
			m.NakWithDelay(r.backoff(tries))
			return
		}
		m.Ack()
	})
	if err != nil {
		return fmt.Errorf("a2anats: listen: %w", err)
	}
	<-ctx.Done()
	cc.Stop()
	<-cc.Closed()
	return nil
}

// backoff is the delay before a notification whose delivery failed tries
// times is delivered again: RedeliverAfter doubled at each failure, up to
// maxRedeliver.
func (r *Relay) backoff(tries int) time.Duration {
	d := r.redeliver
	for range tries - 1 {
		if d >= maxRedeliver/2 {
			return maxRedeliver
		}
		d *= 2
	}
	return min(d, maxRedeliver)
}

var _ a2a.PushRelay = (*Relay)(nil)
