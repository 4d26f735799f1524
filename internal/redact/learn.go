package redact

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Secrets learnt at run time: a credential source hands out a new token
// every hour or so, and each is a secret from the moment it is sent. A
// client's redactor learns each (Learn) and keeps the last maxLearnt, so
// an error about a request sent with a token since replaced is still
// redacted, and a process that runs for a month keeps a handful of
// tokens, not thousands.

// maxLearnt is how many learnt secrets a redactor keeps: the latest.
const maxLearnt = 8

// learnt is the secrets a client's redactor learnt, shared by the
// redactors made of it (With). Learn writes under mu; Str reads now
// without locking.
type learnt struct {
	mu     sync.Mutex
	recent []string                 // the latest last, at most maxLearnt
	now    atomic.Pointer[Redactor] // the redactor of recent's spellings
}

// Learn adds secret (a token a credential source handed out) to the
// secrets r and every redactor made of it by With remove, in all the
// spellings and runs New gives a bearer token; of those learnt, the
// latest maxLearnt are kept. It is safe for concurrent use with every
// other method. An empty secret, or one among the latest kept, changes
// nothing; a nil r, or one made of a redactor that had none, learns
// nothing.
func (r *Redactor) Learn(secret string) {
	if r == nil || r.learnt == nil || secret == "" {
		return
	}
	l := r.learnt
	l.mu.Lock()
	defer l.mu.Unlock()
	if slices.Contains(l.recent, secret) {
		return
	}
	if len(l.recent) == maxLearnt {
		l.recent = slices.Delete(l.recent, 0, 1)
	}
	l.recent = append(l.recent, secret)
	f := formSet{}
	for _, s := range l.recent {
		f.secret(s)
	}
	l.now.Store(f.redactor())
}
