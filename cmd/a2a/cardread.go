package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/caoliao-a2a/a2a-go"
)

// Reading the card --agent-card names: from a file, the agent's site,
// its card URL, or found from an endpoint URL.

// The kinds of --agent-card reference.
const (
	refSite     = iota // a host or site: its card at the well-known path
	refCardURL         // a URL naming the card file (".json"): read as it is
	refEndpoint        // another URL: an endpoint; its card is looked for
	refFile            // a card file on disk
)

// agentRef is --agent-card read: its kind and where it points.
type agentRef struct {
	kind int
	url  string // refSite, refCardURL, refEndpoint
	path string // refFile
}

// parseRef reads an --agent-card reference (the specification's §10.1):
// "file://PATH" or a path that exists (or holds a "/" or ends ".json")
// is a file; an http(s) URL is a site (no path), a card URL (".json") or
// an endpoint; anything else is a host, reached over https (http for a
// loopback host: localhost, 127.0.0.0/8, ::1). A reference with an "@"
// that names no file is a URL without its scheme: a usage error that does
// not repeat it (it may hold a password).
func parseRef(ref string) (agentRef, error) {
	if p, ok := strings.CutPrefix(ref, "file://"); ok {
		return agentRef{kind: refFile, path: p}, nil
	}
	if strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://") {
		u, err := url.Parse(ref)
		if err != nil || u.Host == "" {
			return agentRef{}, usagef("--agent-card %s is not a URL a2a can read", quote(ref))
		}
		switch {
		case u.Path == "" || u.Path == "/":
			return agentRef{kind: refSite, url: u.Scheme + "://" + u.Host}, nil
		case strings.HasSuffix(u.Path, ".json"):
			return agentRef{kind: refCardURL, url: ref}, nil
		}
		return agentRef{kind: refEndpoint, url: ref}, nil
	}
	if strings.Contains(ref, "://") { // checked first: "ftp://host/card.json" is no file
		return agentRef{}, usagef("--agent-card %s: want a host, an http:// or https:// URL, or a file", quote(ref))
	}
	st, statErr := os.Stat(ref)
	if strings.Contains(ref, "@") && (statErr != nil || st.IsDir()) {
		// user:password@host/…: a URL without its scheme, not a file.
		return agentRef{}, usagef("--agent-card holds an @ but names no card file: give the agent's URL with http:// or https:// (the reference is not repeated here: it may hold a password)")
	}
	if statErr == nil && !st.IsDir() || strings.ContainsAny(ref, "/\\") || strings.HasSuffix(ref, ".json") {
		return agentRef{kind: refFile, path: ref}, nil
	}
	host := ref
	if h, _, err := net.SplitHostPort(ref); err == nil {
		host = h
	}
	scheme := "https"
	if ip := net.ParseIP(strings.Trim(host, "[]")); host == "localhost" || ip != nil && ip.IsLoopback() {
		scheme = "http"
	}
	u := &url.URL{Scheme: scheme, Host: ref}
	if _, err := url.Parse(u.String()); err != nil || ref == "" {
		return agentRef{}, usagef("--agent-card %s: want a host, an http:// or https:// URL, or a file", quote(ref))
	}
	return agentRef{kind: refSite, url: u.String()}, nil
}

// errCardNotFound is the error of a card reference that names no card.
type errCardNotFound struct{ err error }

func (e errCardNotFound) Error() string { return e.err.Error() }
func (e errCardNotFound) Unwrap() error { return e.err }

// readCard reads the card --agent-card names, verified as the signature
// flags say, without credentials (the specification's AUTH_008: a card
// is public), and returns it with the reference read.
func (o *options) readCard(ctx context.Context) (*a2a.AgentCard, agentRef, error) {
	ref, err := parseRef(o.agentCard)
	if err != nil {
		return nil, ref, err
	}
	opts, err := o.cardOptions()
	if err != nil {
		return nil, ref, err
	}
	if ref.kind == refFile {
		card, err := o.cardFile(ref.path)
		if err != nil {
			return nil, ref, err
		}
		if v, err := o.cardVerifier(); err != nil {
			return nil, ref, err
		} else if v != nil {
			// NewClientFromCard verifies it, and refuses it as
			// --require-signed-card says.
			o.debugf("card: read from %s", quote(ref.path))
		}
		return card, ref, nil
	}
	ctx, cancel := context.WithTimeout(ctx, min(o.timeout, 30*time.Second))
	defer cancel()
	topts, done := o.cardTransportOptions()
	defer done()
	card, err := a2a.ResolveAgentCard(ctx, ref.url, append(opts, topts...)...)
	if _, ok := errors.AsType[*a2a.CardError](err); ok {
		return nil, ref, errCardNotFound{err}
	}
	if err != nil {
		return nil, ref, err
	}
	o.warnExtensions(card)
	return card, ref, nil
}

// cardFile reads a card from a file, at most --max-bytes of it.
func (o *options) cardFile(path string) (*a2a.AgentCard, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errCardNotFound{fmt.Errorf("--agent-card %s: %w", quote(path), errors.Unwrap(err))}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, o.maxBytes+1))
	switch {
	case err != nil:
		return nil, errCardNotFound{fmt.Errorf("--agent-card %s: %w", quote(path), err)}
	case int64(len(b)) > o.maxBytes:
		return nil, cardInvalid{fmt.Errorf("--agent-card %s is larger than --max-bytes %d", quote(path), o.maxBytes)}
	}
	var card a2a.AgentCard
	if err := json.Unmarshal(b, &card); err != nil {
		// Said in the schema's words where it can be (not the decoder's).
		if _, problems := validateCard(b); len(problems) > 0 {
			return nil, cardInvalid{fmt.Errorf("--agent-card %s is not a valid agent card: %s", quote(path), problemList(problems))}
		}
		return nil, cardInvalid{fmt.Errorf("--agent-card %s is not an agent card: %w", quote(path), err)}
	}
	if len(card.Interfaces()) == 0 {
		return nil, cardInvalid{fmt.Errorf("--agent-card %s names no interface (no supportedInterfaces, no url)", quote(path))}
	}
	return &card, nil
}

// cardInvalid is the error of a card read that is not a valid card.
type cardInvalid struct{ err error }

func (e cardInvalid) Error() string { return e.err.Error() }
func (e cardInvalid) Unwrap() error { return e.err }
