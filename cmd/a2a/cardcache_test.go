package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/caoliao-a2a/a2a-go/cardsig"
)

// cardSite is an agent's site for the card cache tests: it serves a card
// with the headers the test sets, answers a conditional GET whose
// validator matches with 304, and counts the card GETs and the body
// bytes it sent.
type cardSite struct {
	srv *httptest.Server
	mu  sync.Mutex
	// Set by the test.
	body   []byte
	header http.Header
	// Seen by the site.
	gets, conditional, bytes int
	credentials              []string // credential headers a card GET carried
	ifNoneMatch, ifModSince  []string
}

func newCardSite(t *testing.T, header http.Header) *cardSite {
	t.Helper()
	s := &cardSite{header: header}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.Method != http.MethodGet || r.URL.Path != "/.well-known/agent-card.json" {
			http.Error(w, "no agent here", http.StatusNotFound)
			return
		}
		s.gets++
		for _, k := range []string{"Authorization", "Cookie", "X-API-Key", "Proxy-Authorization"} {
			if r.Header.Get(k) != "" {
				s.credentials = append(s.credentials, k)
			}
		}
		inm, ims := r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
		s.ifNoneMatch, s.ifModSince = append(s.ifNoneMatch, inm), append(s.ifModSince, ims)
		for k, v := range s.header {
			w.Header()[k] = v
		}
		etag, lm := s.header.Get("ETag"), s.header.Get("Last-Modified")
		if (inm != "" && inm == etag) || (inm == "" && ims != "" && ims == lm) {
			s.conditional++
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		n, _ := w.Write(s.body)
		s.bytes += n
	}))
	t.Cleanup(s.srv.Close)
	s.body = []byte(testCardJSON(s.srv.URL, "Cached"))
	return s
}

// testCardJSON is a v1.0 card named name, served by url.
func testCardJSON(url, name string) string {
	return `{"name":"` + name + `","description":"d","version":"1","supportedInterfaces":[{"url":"` + url + `/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`
}

// set changes what the site serves.
func (s *cardSite) set(body []byte, header http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if body != nil {
		s.body = body
	}
	if header != nil {
		s.header = header
	}
}

// counts are the card GETs, the 304s among them and the body bytes sent.
func (s *cardSite) counts() (gets, conditional, bytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gets, s.conditional, s.bytes
}

// cardGet runs "a2a card get -a SITE args..." with the cache in cache
// (XDG_CACHE_HOME) and the variables vars, and wants it to succeed.
func (s *cardSite) cardGet(t *testing.T, cache string, vars map[string]string, args ...string) result {
	t.Helper()
	env := map[string]string{"XDG_CACHE_HOME": cache}
	for k, v := range vars {
		env[k] = v
	}
	r := invocation{env: env}.run(t, append([]string{"card", "get", "-a", s.srv.URL}, args...)...)
	r.wantCode(t, exitOK)
	return r
}

// cacheFiles are the files of the card cache under cache.
func cacheFiles(t *testing.T, cache string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(cache, "a2a-cli", "cards", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCardCacheFresh: a card served with max-age is read once for three
// commands (the specification's §10.1 SHOULD, CARD_GET_001); --debug
// says where it came from; the cache's directory is 0700 and its file
// 0600, written with no temporary file left.
func TestCardCacheFresh(t *testing.T) {
	site := newCardSite(t, http.Header{"Cache-Control": {"max-age=300"}})
	cache := t.TempDir()
	first := site.cardGet(t, cache, nil, "--debug")
	if !strings.Contains(first.stderr, "a2a: card: fetched\n") {
		t.Errorf("--debug does not say the card was fetched:\n%s", first.stderr)
	}
	second := site.cardGet(t, cache, nil, "--debug")
	if !strings.Contains(second.stderr, "a2a: card: from the cache (fresh for 5m0s)") && !strings.Contains(second.stderr, "a2a: card: from the cache (fresh for 4m59s)") {
		t.Errorf("--debug does not say the card came from the cache:\n%s", second.stderr)
	}
	third := site.cardGet(t, cache, nil)
	if gets, _, _ := site.counts(); gets != 1 {
		t.Fatalf("%d card GETs for three commands, want 1", gets)
	}
	if first.stdout != second.stdout || first.stdout != third.stdout || !strings.Contains(third.stdout, "Name: Cached") {
		t.Errorf("the cached card prints otherwise:\n%s\n---\n%s", first.stdout, third.stdout)
	}
	files := cacheFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	if runtime.GOOS != "windows" {
		for path, want := range map[string]os.FileMode{filepath.Join(cache, "a2a-cli"): 0o700, filepath.Join(cache, "a2a-cli", "cards"): 0o700, files[0]: 0o600} {
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: mode %v (%v), want %v", path, fi.Mode().Perm(), err, want)
			}
		}
	}
	if !strings.HasSuffix(files[0], ".json") || len(filepath.Base(files[0])) != 64+len(".json") {
		t.Errorf("cache file %s is not named by the URL's sha256", files[0])
	}
	var e cardEntry
	b, _ := os.ReadFile(files[0])
	if err := json.Unmarshal(b, &e); err != nil || !bytes.Equal(e.Body, site.body) || e.Header.Get("Cache-Control") != "max-age=300" {
		t.Errorf("cache file holds %s (%v)", b, err)
	}
	if bytes.Contains(b, []byte(site.srv.URL+"/.well-known")) {
		t.Error("the cache file holds the card's URL")
	}
}

// TestCardCacheRevalidated: a card with a validator and no freshness
// (no-cache, or no Cache-Control at all) is asked again each time with
// If-None-Match or If-Modified-Since; the agent's 304 replays the kept
// body (its bytes are sent once), and a new card (200) replaces it.
func TestCardCacheRevalidated(t *testing.T) {
	for _, c := range []struct {
		name   string
		header http.Header
		sent   func(s *cardSite) []string
		want   string
	}{
		{"ETag, no-cache", http.Header{"Etag": {`"v1"`}, "Cache-Control": {"no-cache"}}, func(s *cardSite) []string { return s.ifNoneMatch }, `"v1"`},
		{"ETag, max-age=0", http.Header{"Etag": {`"v1"`}, "Cache-Control": {"max-age=0"}}, func(s *cardSite) []string { return s.ifNoneMatch }, `"v1"`},
		{"Last-Modified, no Cache-Control", http.Header{"Last-Modified": {"Tue, 01 Dec 2026 10:00:00 GMT"}}, func(s *cardSite) []string { return s.ifModSince }, "Tue, 01 Dec 2026 10:00:00 GMT"},
	} {
		t.Run(c.name, func(t *testing.T) {
			site := newCardSite(t, c.header)
			cache := t.TempDir()
			first := site.cardGet(t, cache, nil)
			second := site.cardGet(t, cache, nil, "--debug")
			third := site.cardGet(t, cache, nil, "-o", "json")
			gets, conditional, sent := site.counts()
			if gets != 3 || conditional != 2 || sent != len(site.body) {
				t.Fatalf("%d GETs, %d answered 304, %d body bytes sent; want 3, 2, %d", gets, conditional, sent, len(site.body))
			}
			if got := c.sent(site); got[0] != "" || got[1] != c.want || got[2] != c.want {
				t.Errorf("validators sent %q, want none then %q", got, c.want)
			}
			if !strings.Contains(second.stderr, "a2a: card: revalidated (304)\n") {
				t.Errorf("--debug does not say the card was revalidated:\n%s", second.stderr)
			}
			if first.stdout != second.stdout || third.stdout != string(compact(site.body))+"\n" {
				t.Errorf("the replayed card differs:\n%s\n---\n%s\n---\n%s", first.stdout, second.stdout, third.stdout)
			}
			// A new card: a 200, kept in place of the old one.
			h := c.header.Clone()
			h.Set("Etag", `"v2"`)
			h.Set("Last-Modified", "Wed, 02 Dec 2026 10:00:00 GMT")
			site.set([]byte(testCardJSON(site.srv.URL, "Renewed")), h)
			if r := site.cardGet(t, cache, nil); !strings.Contains(r.stdout, "Name: Renewed") {
				t.Fatalf("the new card is not printed:\n%s", r.stdout)
			}
			if r := site.cardGet(t, cache, nil); !strings.Contains(r.stdout, "Name: Renewed") {
				t.Fatalf("the new card is not kept:\n%s", r.stdout)
			}
			if gets, conditional, _ := site.counts(); gets != 5 || conditional != 3 {
				t.Errorf("%d GETs, %d answered 304; want 5, 3", gets, conditional)
			}
		})
	}
}

// TestCardCacheNotKept: no-store, a Vary on anything but Accept-Encoding,
// or nothing to reuse it by (no freshness, no validator) read the card
// every time and write no file (nor make the cache directory); a Vary on
// Accept-Encoding is kept.
func TestCardCacheNotKept(t *testing.T) {
	for _, c := range []struct {
		name   string
		header http.Header
		gets   int
		why    string
	}{
		{"no-store", http.Header{"Cache-Control": {"max-age=300, no-store"}, "Etag": {`"v1"`}}, 3, "no-store"},
		{"Vary: User-Agent", http.Header{"Cache-Control": {"max-age=300"}, "Vary": {"Accept-Encoding, User-Agent"}}, 3, "Vary: User-Agent"},
		{"Vary: *", http.Header{"Cache-Control": {"max-age=300"}, "Vary": {"*"}}, 3, "Vary: *"},
		{"nothing to reuse it by", http.Header{}, 3, "no freshness"},
		{"expired, no validator", http.Header{"Expires": {"Tue, 01 Dec 2026 10:00:00 GMT"}, "Date": {"Tue, 01 Dec 2026 10:00:00 GMT"}}, 3, "no freshness"},
		{"Vary: Accept-Encoding", http.Header{"Cache-Control": {"max-age=300"}, "Vary": {"Accept-Encoding"}}, 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			site := newCardSite(t, c.header)
			cache := t.TempDir()
			r := site.cardGet(t, cache, nil, "--debug")
			site.cardGet(t, cache, nil)
			site.cardGet(t, cache, nil)
			if gets, _, _ := site.counts(); gets != c.gets {
				t.Fatalf("%d card GETs for three commands, want %d", gets, c.gets)
			}
			if files := cacheFiles(t, cache); (len(files) == 0) != (c.why != "") {
				t.Errorf("cache files %v", files)
			}
			if _, err := os.Lstat(filepath.Join(cache, "a2a-cli")); c.why != "" && err == nil {
				t.Error("the cache directory was made with nothing to keep in it")
			}
			if c.why != "" && !strings.Contains(r.stderr, "a2a: card: not cached: "+c.why) {
				t.Errorf("--debug does not say why the card is not kept (%s):\n%s", c.why, r.stderr)
			}
		})
	}
}

// TestCardCacheOff: --no-card-cache and A2ACLI_NO_CARD_CACHE read the card
// every time and keep nothing; so does an environment with neither
// XDG_CACHE_HOME nor HOME.
func TestCardCacheOff(t *testing.T) {
	site := newCardSite(t, http.Header{"Cache-Control": {"max-age=300"}})
	cache := t.TempDir()
	site.cardGet(t, cache, nil, "--no-card-cache")
	site.cardGet(t, cache, map[string]string{"A2ACLI_NO_CARD_CACHE": "true"})
	site.cardGet(t, "", map[string]string{"HOME": "", "XDG_CONFIG_HOME": ""})
	site.cardGet(t, "relative/dir", map[string]string{"HOME": "", "XDG_CONFIG_HOME": ""})
	if gets, _, _ := site.counts(); gets != 4 {
		t.Fatalf("%d card GETs for four commands, want 4", gets)
	}
	if _, err := os.Stat(filepath.Join(cache, "a2a-cli")); err == nil {
		t.Error("--no-card-cache made the cache directory")
	}
	if _, err := os.Stat("relative"); err == nil {
		t.Error("a relative XDG_CACHE_HOME was used")
	}
	if got := cardCacheDir(func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }); got != filepath.Join("/home/u", ".cache", "a2a-cli", "cards") {
		t.Errorf("cache dir from HOME: %s", got)
	}
}

// TestCardCacheCorrupt: a cache file that is not one (garbage, another
// layout, a symbolic link) is not used, and the next card replaces it;
// the file a link pointed to is left as it was.
func TestCardCacheCorrupt(t *testing.T) {
	site := newCardSite(t, http.Header{"Cache-Control": {"max-age=300"}})
	cache := t.TempDir()
	site.cardGet(t, cache, nil)
	files := cacheFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	path := files[0]
	elsewhere := filepath.Join(t.TempDir(), "target")
	for i, spoil := range []func() error{
		func() error { return os.WriteFile(path, []byte("{\"v\":1,\"body\":\"!!\x00"), 0o600) },
		func() error { return os.WriteFile(path, []byte(`{"v":99,"status":200}`), 0o600) },
		func() error {
			return os.WriteFile(path, []byte(`{"v":1,"status":200,"header":{},"body":"e30="}`), 0o600)
		}, // no time received
		func() error {
			good, err := os.ReadFile(path)
			if err == nil {
				err = os.WriteFile(elsewhere, good, 0o600)
			}
			if err == nil {
				err = os.Remove(path)
			}
			if err == nil {
				err = os.Symlink(elsewhere, path)
			}
			return err
		},
	} {
		if err := spoil(); err != nil {
			t.Skip("cannot spoil the file:", err)
		}
		r := site.cardGet(t, cache, nil, "--debug")
		if !strings.Contains(r.stdout, "Name: Cached") || !strings.Contains(r.stderr, "a2a: card: fetched") {
			t.Fatalf("spoilt %d: %s\n%s", i, r.stdout, r.stderr)
		}
		if gets, _, _ := site.counts(); gets != i+2 {
			t.Fatalf("spoilt %d: %d card GETs, want %d", i, gets, i+2)
		}
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("spoilt %d: the file is not replaced (%v)", i, err)
		}
		site.cardGet(t, cache, nil)
		if gets, _, _ := site.counts(); gets != i+2 {
			t.Fatalf("spoilt %d: the replaced file is not used", i)
		}
	}
	if b, err := os.ReadFile(elsewhere); err != nil || !bytes.Contains(b, []byte(`"v":1`)) {
		t.Errorf("the link's target changed: %s (%v)", b, err)
	}
}

// TestCardCacheSymlinkDir: a cache directory that is a symbolic link (or
// its a2a-cli parent) is refused: the card is read, nothing is written
// where it points; one wider than 0700 is narrowed.
func TestCardCacheSymlinkDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links and modes")
	}
	site := newCardSite(t, http.Header{"Cache-Control": {"max-age=300"}})
	for _, link := range []string{"a2a-cli", "a2a-cli/cards"} {
		cache, target := t.TempDir(), t.TempDir()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(cache, link)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(cache, link)); err != nil {
			t.Fatal(err)
		}
		before, _, _ := site.counts()
		r := site.cardGet(t, cache, nil, "--debug")
		site.cardGet(t, cache, nil)
		if gets, _, _ := site.counts(); gets != before+2 {
			t.Errorf("%s a link: %d card GETs, want 2", link, gets-before)
		}
		if !strings.Contains(r.stderr, "is a symbolic link") {
			t.Errorf("%s a link: --debug does not say it:\n%s", link, r.stderr)
		}
		m, _ := filepath.Glob(filepath.Join(target, "*", "*"))
		n, _ := filepath.Glob(filepath.Join(target, "*.json"))
		if len(m)+len(n) != 0 {
			t.Errorf("%s a link: written where it points: %v %v", link, m, n)
		}
	}
	cache := t.TempDir()
	dir := filepath.Join(cache, "a2a-cli", "cards")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	site.cardGet(t, cache, nil)
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the cache dir is left %v (%v)", fi.Mode().Perm(), err)
	}
}

// TestCardCacheNoCredential: the card GETs carry no credential whatever
// --bearer or --api-key says, and the cache file holds none.
func TestCardCacheNoCredential(t *testing.T) {
	const bearer, key = "bearer-secret-4f1c", "api-key-secret-9d2e"
	site := newCardSite(t, http.Header{"Cache-Control": {"max-age=300"}, "Set-Cookie": {"session=cookie-secret-77"}})
	cache := t.TempDir()
	site.cardGet(t, cache, nil, "--bearer", bearer)
	site.cardGet(t, cache, map[string]string{"A2ACLI_API_KEY": key})
	files := cacheFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{bearer, key, "cookie-secret-77", "Set-Cookie"} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the cache file holds %q", secret)
		}
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	if len(site.credentials) > 0 {
		t.Errorf("card GETs carried %v", site.credentials)
	}
}

// TestCardCacheStillVerified: a card from the cache is verified like one
// from the network: a signed card kept, then --require-signed-card with
// keys that are not its signer's refuses it (and with its keys, it
// verifies), without another GET.
func TestCardCacheStillVerified(t *testing.T) {
	site := newCardSite(t, http.Header{"Cache-Control": {"max-age=300"}})
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signed, err := cardsig.Sign(site.body, jose.SigningKey{Algorithm: jose.EdDSA, Key: priv}, "cli-key")
	if err != nil {
		t.Fatal(err)
	}
	site.set(signed, nil)
	keyFile := func(pub ed25519.PublicKey) string {
		jwk, err := (&jose.JSONWebKey{Key: pub, KeyID: "cli-key"}).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "keys.json")
		if err := os.WriteFile(path, []byte(`{"keys":[`+string(jwk)+`]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	wrong, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	site.cardGet(t, cache, nil)
	r := invocation{env: map[string]string{"XDG_CACHE_HOME": cache}}.run(t, "card", "get", "-a", site.srv.URL, "--debug",
		"--card-keys", keyFile(wrong), "--require-signed-card")
	r.wantCode(t, exitError)
	if !strings.Contains(r.stderr, "a2a: card: from the cache") || !strings.Contains(r.stderr, "agent card refused") {
		t.Errorf("the cached card is not refused:\n%s", r.stderr)
	}
	ok := site.cardGet(t, cache, nil, "--card-keys", keyFile(priv.Public().(ed25519.PublicKey)), "--require-signed-card")
	if !strings.Contains(ok.stdout, "Signature: verified (kid cli-key") {
		t.Errorf("the cached card does not verify with its keys:\n%s", ok.stdout)
	}
	if gets, _, _ := site.counts(); gets != 1 {
		t.Errorf("%d card GETs, want 1", gets)
	}
}
