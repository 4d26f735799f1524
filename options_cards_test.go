package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// fixedVerifier answers status (with err) for every card and counts the
// cards it saw.
func fixedVerifier(status a2a.CardSignatureStatus, err error, seen *atomic.Int32) a2a.CardVerifier {
	return a2a.CardVerifierFunc(func(_ context.Context, card *a2a.AgentCard) *a2a.CardVerification {
		seen.Add(1)
		if card.Raw() == nil {
			return &a2a.CardVerification{Status: a2a.CardSignatureUnverifiable, Err: errors.New("no raw bytes")}
		}
		return &a2a.CardVerification{Status: status, Err: err, KeyID: "k"}
	})
}

// TestResolveWithVerifier: ResolveAgentCard puts the verifier's answer on
// the card, refuses an invalid card always and any card not verified
// under WithRequireVerifiedCard, with errors.Is-able sentinels.
func TestResolveWithVerifier(t *testing.T) {
	srv := a2atest.NewServer(a2atest.WithCard(caoliaoCard()))
	defer srv.Close()
	ctx := context.Background()
	for _, c := range []struct {
		status  a2a.CardSignatureStatus
		require bool
		want    error
	}{
		{a2a.CardSignatureVerified, true, nil},
		{a2a.CardSignatureAbsent, false, nil},
		{a2a.CardSignatureUnverifiable, false, nil},
		{a2a.CardSignatureAbsent, true, a2a.ErrCardNotVerified},
		{a2a.CardSignatureUnverifiable, true, a2a.ErrCardNotVerified},
		{a2a.CardSignatureInvalid, false, a2a.ErrCardSignatureInvalid},
	} {
		var seen atomic.Int32
		opts := []a2a.Option{a2a.WithCardVerifier(fixedVerifier(c.status, nil, &seen))}
		if c.require {
			opts = append(opts, a2a.WithRequireVerifiedCard())
		}
		card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL(), opts...)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) || seen.Load() != 1 {
			t.Errorf("%s require=%v: %v (want %v), verified %d times", c.status, c.require, err, c.want, seen.Load())
			continue
		}
		if err == nil && card.Verification().Status != c.status {
			t.Errorf("%s: card says %v", c.status, card.Verification())
		}
		var se *a2a.CardSignatureError
		if err != nil && (!errors.As(err, &se) || se.Status != c.status) {
			t.Errorf("%s: %#v", c.status, err)
		}
	}
	if _, err := a2a.ResolveAgentCard(ctx, srv.BaseURL(), a2a.WithRequireVerifiedCard()); err == nil || !strings.Contains(err.Error(), "needs WithCardVerifier") {
		t.Errorf("require without verifier: %v", err)
	}
	if _, err := a2a.NewClient(srv.URL, a2a.WithCardVerifier(nil)); err == nil {
		t.Error("nil verifier accepted")
	}
}

// TestCardErrorInertAndRedacted: the verifier's reason reaches the error
// with the client's secret redacted and control characters escaped.
func TestCardErrorInertAndRedacted(t *testing.T) {
	srv := a2atest.NewServer(a2atest.WithCard(caoliaoCard()))
	defer srv.Close()
	var seen atomic.Int32
	reason := errors.New("kid \x1b[2Jtok-secret-0123456789 failed")
	_, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL(),
		a2a.WithBearerToken("tok-secret-0123456789"), a2a.WithCardVerifier(fixedVerifier(a2a.CardSignatureInvalid, reason, &seen)))
	if err == nil || strings.Contains(err.Error(), "tok-secret") || strings.Contains(err.Error(), "\x1b") || !strings.Contains(err.Error(), `\x1b[2J`) {
		t.Fatalf("%q", err)
	}
}

// TestNewClientFromCardVerifies: a card no verifier has seen is verified
// once, on a copy (the caller's card is not written); one already
// verified is taken as it is; a signed card that did not verify never
// gets a client that carries credentials.
func TestNewClientFromCardVerifies(t *testing.T) {
	srv := a2atest.NewServer(a2atest.WithCard(caoliaoCard()))
	defer srv.Close()
	ctx := context.Background()
	card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	var seen atomic.Int32
	c, err := a2a.NewClientFromCard(card, a2a.WithCardVerifier(fixedVerifier(a2a.CardSignatureVerified, nil, &seen)), a2a.WithBearerToken("tok"))
	if err != nil || seen.Load() != 1 || !c.Card().Verification().Verified() || card.Verification() != nil {
		t.Fatalf("%v; seen %d; caller's card %v", err, seen.Load(), card.Verification())
	}
	verified, err := a2a.ResolveAgentCard(ctx, srv.BaseURL(), a2a.WithCardVerifier(fixedVerifier(a2a.CardSignatureVerified, nil, &seen)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a2a.NewClientFromCard(verified, a2a.WithCardVerifier(fixedVerifier(a2a.CardSignatureInvalid, nil, &seen)), a2a.WithRequireVerifiedCard()); err != nil || seen.Load() != 2 {
		t.Fatalf("verified card re-verified or refused: %v, %d", err, seen.Load())
	}
	sent := len(srv.Requests()) // the two card GETs
	for status, want := range map[a2a.CardSignatureStatus]error{
		a2a.CardSignatureUnverifiable: a2a.ErrCardNotVerified,
		a2a.CardSignatureInvalid:      a2a.ErrCardSignatureInvalid,
		a2a.CardSignatureAbsent:       nil,
	} {
		_, err := a2a.NewClientFromCard(card, a2a.WithCardVerifier(fixedVerifier(status, nil, &seen)), a2a.WithAPIKey("key-123"))
		if !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("%s with credentials: %v, want %v", status, err, want)
		}
		if status == a2a.CardSignatureUnverifiable {
			if _, err := a2a.NewClientFromCard(card, a2a.WithCardVerifier(fixedVerifier(status, nil, &seen))); err != nil {
				t.Errorf("unverifiable without credentials: %v", err)
			}
		}
	}
	if n := len(srv.Requests()) - sent; n != 0 {
		t.Errorf("%d requests: refusals send nothing", n)
	}
}

// TestExtendedCardVerified: GetExtendedAgentCard verifies each card it
// reads; an invalid one is refused and the client keeps the card it had.
func TestExtendedCardVerified(t *testing.T) {
	public := caoliaoCard()
	public.SupportsAuthenticatedExtendedCard = true
	extended := caoliaoCard()
	extended.Name = "extended"
	srv := a2atest.NewServer(a2atest.WithCard(public), a2atest.WithExtendedCard(extended))
	defer srv.Close()
	ctx := context.Background()
	card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	var status atomic.Value
	status.Store(a2a.CardSignatureVerified)
	var seen atomic.Int32
	v := a2a.CardVerifierFunc(func(ctx context.Context, card *a2a.AgentCard) *a2a.CardVerification {
		seen.Add(1)
		return &a2a.CardVerification{Status: status.Load().(a2a.CardSignatureStatus)}
	})
	c, err := a2a.NewClientFromCard(card, a2a.WithCardVerifier(v))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetExtendedAgentCard(ctx)
	if err != nil || !got.Verification().Verified() || !c.Card().Verification().Verified() || seen.Load() != 2 {
		t.Fatalf("%v, %v, seen %d", got, err, seen.Load())
	}
	status.Store(a2a.CardSignatureInvalid)
	if _, err := c.GetExtendedAgentCard(ctx); !errors.Is(err, a2a.ErrCardSignatureInvalid) || seen.Load() != 3 {
		t.Fatalf("invalid extended card: %v", err)
	}
	if !c.Card().Verification().Verified() {
		t.Fatal("the refused card replaced the client's")
	}
}

// TestUnsignedEndpointsNotVerified: a card verified over a form that
// leaves a member the client routes by unsigned (an a2a-js signature
// leaves members outside its schema, and a v0.3 card's url, unsigned) is
// not verified for the client: refused under WithRequireVerifiedCard,
// and never given credentials. Members it does not route by may be
// unsigned. (Attack round 1: such cards sent the bearer token to the
// endpoint an attacker added.)
func TestUnsignedEndpointsNotVerified(t *testing.T) {
	v10 := `{"name":"a","description":"","version":"1","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[],` +
		`"supportedInterfaces":[{"url":"https://agent.example/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`
	v03 := `{"name":"a","description":"","version":"1","url":"https://agent.example/a2a","protocolVersion":"0.3.0","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`
	for _, tc := range []struct {
		name, card string
		unsigned   []string
		verified   bool
	}{
		{"v1.0 interface entry", v10, []string{"/supportedInterfaces/0"}, false},
		{"v1.0 member of an entry", v10, []string{"/supportedInterfaces/0/tenant"}, false},
		{"v1.0 url beside the interfaces", v10, []string{"/url", "/protocolVersion"}, true},
		{"v0.3 url", v03, []string{"/url"}, false},
		{"v0.3 additional interface", v03, []string{"/additionalInterfaces/1"}, false},
		{"v0.3 description", v03, []string{"/description"}, true},
		{"a member named like one", v03, []string{"/urls"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var card a2a.AgentCard
			if err := json.Unmarshal([]byte(tc.card), &card); err != nil {
				t.Fatal(err)
			}
			v := a2a.CardVerifierFunc(func(context.Context, *a2a.AgentCard) *a2a.CardVerification {
				return &a2a.CardVerification{Status: a2a.CardSignatureVerified, KeyID: "k", Form: "a2a-js", Unsigned: tc.unsigned}
			})
			c, err := a2a.NewClientFromCard(&card, a2a.WithCardVerifier(v), a2a.WithRequireVerifiedCard(), a2a.WithBearerToken("tok"))
			if tc.verified {
				if err != nil || !c.Card().Verification().Verified() {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, a2a.ErrCardNotVerified) || !strings.Contains(err.Error(), tc.unsigned[0]) {
				t.Fatalf("got %v, want ErrCardNotVerified naming %s", err, tc.unsigned[0])
			}
			if _, err := a2a.NewClientFromCard(&card, a2a.WithCardVerifier(v), a2a.WithBearerToken("tok")); !errors.Is(err, a2a.ErrCardNotVerified) {
				t.Fatalf("with credentials, not required: %v", err)
			}
		})
	}
}

// TestCardCaseVariantRefused: a known member in another case ("Url")
// makes json.Unmarshal of a card fail, as ResolveAgentCard refuses it,
// instead of being read as the member: no signature form signs it.
func TestCardCaseVariantRefused(t *testing.T) {
	for _, body := range []string{
		`{"name":"a","Url":"http://evil.example/rpc","url":"https://agent.example/a2a"}`,
		`{"name":"a","supportedInterfaces":[{"Url":"http://evil.example/rpc","ProtocolBinding":"JSONRPC","ProtocolVersion":"1.0"}]}`,
	} {
		var card a2a.AgentCard
		if err := json.Unmarshal([]byte(body), &card); err == nil || !strings.Contains(err.Error(), "another case") {
			t.Errorf("%s: %v, want a refusal naming the case", body, err)
		}
	}
}

// TestExtendedCardNoDowngrade: an extended card that is not verified
// does not replace a verified card (attack round 1: an unsigned extended
// card took over silently).
func TestExtendedCardNoDowngrade(t *testing.T) {
	public := caoliaoCard()
	public.SupportsAuthenticatedExtendedCard = true
	srv := a2atest.NewServer(a2atest.WithCard(public), a2atest.WithExtendedCard(caoliaoCard()))
	defer srv.Close()
	ctx := context.Background()
	var status atomic.Value
	status.Store(a2a.CardSignatureVerified)
	v := a2a.CardVerifierFunc(func(context.Context, *a2a.AgentCard) *a2a.CardVerification {
		return &a2a.CardVerification{Status: status.Load().(a2a.CardSignatureStatus)}
	})
	card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL(), a2a.WithCardVerifier(v))
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithCardVerifier(v))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []a2a.CardSignatureStatus{a2a.CardSignatureAbsent, a2a.CardSignatureUnverifiable} {
		status.Store(s)
		if _, err := c.GetExtendedAgentCard(ctx); !errors.Is(err, a2a.ErrCardNotVerified) {
			t.Errorf("%s extended card over a verified one: %v", s, err)
		}
		if !c.Card().Verification().Verified() {
			t.Fatalf("%s extended card replaced the verified one", s)
		}
	}
}

// TestRecordedVerificationHoldsWithoutVerifier: a card ResolveAgentCard
// found unverifiable gets no client with credentials from
// NewClientFromCard, even without WithCardVerifier there (new-user
// trial: the credentials went out unless the verifier was given again).
func TestRecordedVerificationHoldsWithoutVerifier(t *testing.T) {
	srv := a2atest.NewServer(a2atest.WithCard(caoliaoCard()))
	defer srv.Close()
	var seen atomic.Int32
	card, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL(), a2a.WithCardVerifier(fixedVerifier(a2a.CardSignatureUnverifiable, errors.New("no key"), &seen)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a2a.NewClientFromCard(card, a2a.WithAPIKey("key-123")); !errors.Is(err, a2a.ErrCardNotVerified) {
		t.Fatalf("credentials from an unverifiable card: %v", err)
	}
	if _, err := a2a.NewClientFromCard(card); err != nil {
		t.Fatalf("without credentials: %v", err)
	}
}
