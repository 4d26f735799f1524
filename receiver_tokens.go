package a2a

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
)

// The receiver's tokens: a notification's token read from its headers,
// the open waits looked up by the token's hash, and the tokens of the
// waits ended lately.

// tokenKey is the SHA-256 of a token: waits are looked up by it, so the
// lookup's timing tells a caller guessing tokens nothing about them.
type tokenKey [sha256.Size]byte

// tokenHeaderKeys are the token headers as a request's header map holds
// them (canonical: "X-A2a-…"), so that looking them up costs no
// canonicalizing.
var tokenHeaderKeys = [...]string{http.CanonicalHeaderKey(tokenHeader), http.CanonicalHeaderKey(tokenHeaderV10)}

// notificationToken is the token a notification carries, "" for none:
// the first of the token headers set, else a Bearer credential.
func notificationToken(h http.Header) string {
	for _, key := range tokenHeaderKeys {
		if vs := h[key]; len(vs) > 0 && vs[0] != "" {
			return vs[0]
		}
	}
	scheme, cred, ok := strings.Cut(h.Get("Authorization"), " ")
	if ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(cred)
	}
	return ""
}

// lookup finds the wait of token, whose hash is key: an open one, or
// retired when the token was a wait's that has ended.
func (r *PushReceiver) lookup(token string, key tokenKey) (w *PushWait, retired bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w = r.waits[key]
	if w == nil {
		return nil, r.retired.has(key)
	}
	// The hash matched; the tokens themselves are compared in constant
	// time all the same (a resumed wait has only the hash).
	if w.token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(w.token)) != 1 {
		return nil, false
	}
	return w, false
}

// errWaitRegistered is what add returns for a wait whose token's hash is
// registered already (Resume racing Resume: the record is resumed once).
var errWaitRegistered = errors.New("a2a: a wait of this token is registered already")

// add registers w, for a SendMessage or WatchTask under way (r.busy; the call marks
// its end with leave), under its token; it fails once the receiver is
// closed, and when a wait of w's token is registered already.
func (r *PushReceiver) add(w *PushWait) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrReceiverClosed
	}
	if _, dup := r.waits[w.key]; dup {
		return errWaitRegistered
	}
	r.waits[w.key] = w
	r.busy++ // the call's, ended by its leave
	return nil
}

// remove retires w: its token no longer matches a wait, and its late
// notifications are answered 204 while it is among the last ones retired.
func (r *PushReceiver) remove(w *PushWait) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waits[w.key] == w {
		r.dropLocked(w)
	}
}

// maxRetired is how many ended waits' tokens a receiver remembers, so
// that their late or duplicate notifications get 204 rather than 401 (an
// agent may count a 4xx as a failed delivery, or cancel over it): about
// 1.5 MiB at most.
const maxRetired = 16384

// retiredSet is the tokens of the last maxRetired waits that ended.
type retiredSet struct {
	keys map[tokenKey]struct{}
	ring []tokenKey
	next int
}

func (s *retiredSet) has(k tokenKey) bool {
	_, ok := s.keys[k]
	return ok
}

func (s *retiredSet) add(k tokenKey) {
	if s.keys == nil {
		s.keys = map[tokenKey]struct{}{}
	}
	if len(s.ring) < maxRetired {
		s.ring = append(s.ring, k)
	} else {
		delete(s.keys, s.ring[s.next])
		s.ring[s.next] = k
		s.next = (s.next + 1) % maxRetired
	}
	s.keys[k] = struct{}{}
}
