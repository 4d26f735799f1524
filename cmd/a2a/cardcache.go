package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// The card cache (the A2A CLI specification §10.1: "card get … SHOULD
// cache the card honoring HTTP caching semantics"). Only the card reads
// go through it, never a call to the agent nor a signature's jku fetch.
// It is a private cache holding RFC 9111's subset a card needs: a 200
// answer to a GET without credentials is kept, one file per URL, and
// served again while fresh (max-age, else Expires; s-maxage is for
// shared caches), revalidated when stale or marked no-cache (a
// conditional GET: a 304 replays the kept body), never kept under
// no-store or a Vary other than Accept-Encoding. There is no heuristic
// freshness: an answer without max-age or Expires is revalidated (or,
// without a validator, fetched again) every time. The card the SDK is
// handed from the cache is verified like one from the network.

// cardCacheVersion is the version of the cache file's layout; a file of
// another is ignored (and replaced).
const cardCacheVersion = 1

// cardCacheHeaders are the response headers a cache file keeps: those a
// replay needs, and those its freshness and validation are computed
// from. No other (Set-Cookie above all) is written.
var cardCacheHeaders = []string{"Content-Type", "Content-Encoding", "ETag", "Last-Modified", "Cache-Control", "Expires", "Date", "Age", "Vary"}

// cardCacheDir is the directory of the card cache for the environment
// getenv reads: $XDG_CACHE_HOME/a2a-cli/cards when XDG_CACHE_HOME is
// absolute (the XDG rule: a relative one is ignored), else
// $HOME/.cache/a2a-cli/cards (%USERPROFILE% when HOME is not set); ""
// when none is set, and then nothing is cached.
func cardCacheDir(getenv func(string) string) string {
	if x := getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "a2a-cli", "cards")
	}
	for _, v := range []string{"HOME", "USERPROFILE" /* Windows */} {
		if h := getenv(v); h != "" && filepath.IsAbs(h) {
			return filepath.Join(h, ".cache", "a2a-cli", "cards")
		}
	}
	return ""
}

// newCardCache returns the RoundTripper that answers the card GETs of
// next from the cache in dir (made 0700 when a first card is kept; a
// dir, or its parent a2a-cli, that is a symbolic link or another user's
// is refused and nothing is cached), keeping each body of at most maxBytes bytes
// (as received: compressed when the agent compressed it). logf, when not
// nil, gets a --debug line for each card answered: "card: from the cache
// (fresh for 4m12s)", "card: revalidated (304)", "card: fetched", and why
// a card was not kept. Errors of the cache itself are never the
// request's: the card is read from the network instead.
func newCardCache(next http.RoundTripper, dir string, maxBytes int64, logf func(format string, args ...any)) http.RoundTripper {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &cardCache{next: next, dir: dir, maxBytes: maxBytes, logf: logf, now: time.Now}
}

// cardCache is newCardCache's RoundTripper.
type cardCache struct {
	next     http.RoundTripper
	dir      string
	maxBytes int64
	logf     func(string, ...any)
	now      func() time.Time // the clock (tests set it)

	mu   sync.Mutex
	told bool // a refused directory was logged
}

// errNoCacheDir is ready's error when the cache directory is not made
// yet and was not to be made.
var errNoCacheDir = errors.New("no cache directory yet")

// cardEntry is a cache file: a 200 answer as received, and when.
type cardEntry struct {
	Version int         `json:"v"`
	Status  int         `json:"status"`
	Header  http.Header `json:"header"` // cardCacheHeaders only
	Body    []byte      `json:"body"`   // exactly as received
	// Requested and Received are when the request that brought the
	// answer (or its last 304) was sent and answered: RFC 9111 §4.2.3's
	// request_time and response_time.
	Requested time.Time `json:"requested"`
	Received  time.Time `json:"received"`
	// AcceptEncoding is the request's Accept-Encoding: an answer that
	// varies by it is only served to a request asking the same.
	AcceptEncoding string `json:"acceptEncoding"`
}

// RoundTrip answers req from the cache when it can, else from next (a
// conditional GET when a stale card has a validator), keeping a 200
// answer that may be kept. A request with credentials, a range or a
// method other than GET goes to next untouched.
func (c *cardCache) RoundTrip(req *http.Request) (*http.Response, error) {
	if why := uncacheableRequest(req); why != "" {
		return c.next.RoundTrip(req)
	}
	if err := c.ready(false); err != nil && !errors.Is(err, errNoCacheDir) {
		return c.next.RoundTrip(req)
	}
	path := filepath.Join(c.dir, cardCacheKey(req))
	e := c.load(path, req)
	reqCC := cacheControl(req.Header)
	if e != nil && !reqCC.has("no-cache") && !reqCC.has("no-store") && !cacheControl(e.Header).has("no-cache") {
		if left := e.freshness() - e.age(c.now()); left > 0 {
			c.logf("card: from the cache (fresh for %s)", left.Round(time.Second))
			return e.response(req, c.now()), nil
		}
	}
	out := req
	if e != nil && (e.Header.Get("ETag") != "" || e.Header.Get("Last-Modified") != "") {
		out = req.Clone(req.Context())
		if v := e.Header.Get("ETag"); v != "" {
			out.Header.Set("If-None-Match", v)
		}
		if v := e.Header.Get("Last-Modified"); v != "" {
			out.Header.Set("If-Modified-Since", v)
		}
	}
	requested := c.now()
	resp, err := c.next.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	received := c.now()
	switch {
	case resp.StatusCode == http.StatusNotModified && out != req:
		drain(resp.Body)
		if tag := resp.Header.Get("ETag"); tag != "" && tag != e.Header.Get("ETag") {
			// Not the card kept: forget it, and ask again plainly.
			c.remove(path)
			c.logf("card: the agent's 304 names another version; fetching it")
			return c.fetched(req, path, requested)
		}
		e.update(resp.Header, requested, received)
		c.logf("card: revalidated (304)")
		if why := unstorable(req.Header, e.Header, received); why != "" {
			c.remove(path)
			c.logf("card: not cached: %s", why)
		} else {
			c.save(path, e)
		}
		return e.response(req, received), nil
	case resp.StatusCode == http.StatusOK:
		return c.keep(req, resp, path, requested, received)
	}
	return resp, nil
}

// fetched sends req to next as it is and keeps its 200 answer.
func (c *cardCache) fetched(req *http.Request, path string, requested time.Time) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	return c.keep(req, resp, path, requested, c.now())
}

// keep reads the body of resp, a 200 answer to req, and keeps it in
// path when it may be kept (else removes what path held); resp is
// returned with its body intact. A body larger than the cap, or one
// whose reading fails, is handed on as it comes, for the SDK to refuse.
func (c *cardCache) keep(req *http.Request, resp *http.Response, path string, requested, received time.Time) (*http.Response, error) {
	c.logf("card: fetched")
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBytes+1))
	switch {
	case err != nil:
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(body), errReader{err}), resp.Body}
		c.remove(path) // an answer came, if not whole: the card kept is not the agent's now
		return resp, nil
	case int64(len(body)) > c.maxBytes:
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
		c.remove(path)
		c.logf("card: not cached: larger than --max-bytes")
		return resp, nil
	}
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if why := unstorable(req.Header, resp.Header, received); why != "" {
		c.remove(path)
		c.logf("card: not cached: %s", why)
		return resp, nil
	}
	e := &cardEntry{Version: cardCacheVersion, Status: http.StatusOK, Header: http.Header{}, Body: body,
		Requested: requested, Received: received, AcceptEncoding: req.Header.Get("Accept-Encoding")}
	for _, k := range cardCacheHeaders {
		if v := resp.Header.Values(k); len(v) > 0 {
			e.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), v...)
		}
	}
	c.save(path, e)
	return resp, nil
}

// ready checks the cache directory and its parent (a2a-cli) are usable:
// real directories, not symbolic links (never followed: nothing is read
// or made where one points), the user's own; with create, it makes them
// (0700) when missing, and narrows a cache directory left wider than
// 0700 (else errNoCacheDir when one is missing). A refused directory is
// logged once.
func (c *cardCache) ready(create bool) error {
	err := c.checkDir(create)
	if err != nil && !errors.Is(err, errNoCacheDir) {
		c.mu.Lock()
		if !c.told {
			c.logf("card: not cached: %v", err)
		}
		c.told = true
		c.mu.Unlock()
	}
	return err
}

func (c *cardCache) checkDir(create bool) error {
	if c.dir == "" {
		return errors.New("no cache directory (neither XDG_CACHE_HOME nor HOME is set)")
	}
	parent := filepath.Dir(c.dir)
	if create {
		if err := os.MkdirAll(filepath.Dir(parent), 0o700); err != nil {
			return err
		}
	}
	for _, d := range []string{parent, c.dir} {
		fi, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			if !create {
				return errNoCacheDir
			}
			if err = os.Mkdir(d, 0o700); err == nil || errors.Is(err, fs.ErrExist) {
				fi, err = os.Lstat(d)
			}
		}
		switch {
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link", quote(d))
		case !fi.IsDir():
			return fmt.Errorf("%s is not a directory", quote(d))
		case ownedByOther(fi):
			return fmt.Errorf("%s belongs to another user", quote(d))
		case create && d == c.dir && fi.Mode().Perm() != 0o700 && runtime.GOOS != "windows":
			if err := os.Chmod(d, 0o700); err != nil {
				return err
			}
		}
	}
	return nil
}

// load reads the entry of path for req; nil when there is none or it
// cannot be used: unreadable, not a regular file (a symbolic link is
// not followed), larger than the cap allows, corrupt, of another layout,
// or varying by an Accept-Encoding req does not send. A bad file is
// replaced by the next answer kept.
func (c *cardCache) load(path string, req *http.Request) *cardEntry {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil
	}
	if !fi.Mode().IsRegular() {
		c.logf("card: cache file %s is not a regular file; not read", quote(path))
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi2, err := f.Stat(); err != nil || !os.SameFile(fi, fi2) {
		return nil
	}
	limit := c.maxBytes/3*4 + 1<<20 // the body in base64, and the headers
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	var e cardEntry
	switch {
	case err != nil || int64(len(b)) > limit:
		c.logf("card: cache file %s is unreadable or too large; ignored", quote(path))
		return nil
	case json.Unmarshal(b, &e) != nil || e.Version != cardCacheVersion || e.Status != http.StatusOK || e.Received.IsZero() || e.Header == nil:
		c.logf("card: cache file %s is corrupt; ignored", quote(path))
		return nil
	case int64(len(e.Body)) > c.maxBytes:
		return nil
	}
	if len(e.Header.Values("Vary")) > 0 && e.AcceptEncoding != req.Header.Get("Accept-Encoding") {
		return nil
	}
	return &e
}

// save writes e to path atomically (a temporary file, 0600, renamed
// over it: a symbolic link there is replaced, not followed). A failure
// is logged, not returned: the card was read all the same.
func (c *cardCache) save(path string, e *cardEntry) {
	err := c.ready(true)
	if err != nil {
		return // logged by ready
	}
	b, err := json.Marshal(e)
	if err == nil {
		err = writeAtomic(path, b)
	}
	if err != nil {
		c.logf("card: not cached: %v", err)
	}
}

// writeAtomic writes b to path through a temporary file of mode 0600 in
// its directory, renamed over path once complete (a symbolic link at
// path is replaced, not followed): the card cache's and the token
// store's files.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".a2a-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(b)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// remove forgets the entry of path, if any.
func (c *cardCache) remove(path string) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.logf("card: cache file %s not removed: %v", quote(path), err)
	}
}

// drain reads what is left of a body (at most 64 KiB, so that its
// connection may be used again) and closes it.
func drain(body io.ReadCloser) {
	io.Copy(io.Discard, io.LimitReader(body, 64<<10))
	body.Close()
}

// readCloser is a body read from r and closed by c.
type readCloser struct {
	io.Reader
	io.Closer
}

// errReader is a reader that fails with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
