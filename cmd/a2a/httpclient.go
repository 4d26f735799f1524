package main

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// transportOptions is the HTTP client the flags need, when they need one
// of their own: --insecure, --cert/--key, --cacert (baseClient, made by
// check), an API key the card places in a query or cookie (credWrap),
// --debug's wire dump. None: the package's shared client.
func (o *options) transportOptions() []a2a.Option {
	if o.baseClient == nil && o.credWrap == nil && !o.debug && o.pushReceiver == "" {
		return nil
	}
	hc, _ := o.httpClient(o.credWrap)
	return []a2a.Option{a2a.WithHTTPClient(hc)}
}

// cardTransportOptions is the HTTP client of the card reads: the one of
// transportOptions without the credential wrapper (a card is public),
// behind the card cache (cardcache.go) unless --no-card-cache is given
// or there is no cache directory. done closes the idle connections of a
// transport made for the card alone (call it once the card is read).
func (o *options) cardTransportOptions() (opts []a2a.Option, done func()) {
	dir := ""
	if !o.noCardCache {
		dir = cardCacheDir(o.env.getenv)
	}
	if dir == "" && o.baseClient == nil && !o.debug {
		return nil, func() {}
	}
	hc, made := o.httpClient(nil)
	if dir != "" {
		hc.Transport = newCardCache(hc.Transport, dir, o.maxBytes, o.debugf)
	}
	done = func() {}
	if made != nil {
		done = made.CloseIdleConnections
	}
	return []a2a.Option{a2a.WithHTTPClient(hc)}, done
}

// httpClient is a new HTTP client: a copy of baseClient (else one on a
// clone of the default transport, returned as made), its transport
// wrapped by wrap when not nil, and by --debug's wire dump.
func (o *options) httpClient(wrap func(http.RoundTripper) http.RoundTripper) (hc *http.Client, made *http.Transport) {
	hc = &http.Client{}
	var rt http.RoundTripper
	if o.baseClient != nil {
		*hc = *o.baseClient
		rt = hc.Transport
	}
	if rt == nil {
		made = http.DefaultTransport.(*http.Transport).Clone()
		rt = made
	}
	if wrap != nil {
		rt = wrap(rt)
	}
	if o.debug {
		rt = debugTransport(rt, o.env.stderr, o.redactor().Str, 64<<10)
	}
	if o.pushReceiver != "" {
		rt = o.webhookSecrets(rt) // outermost: learnt before the dump shows the request
	}
	hc.Transport = rt
	return hc, made
}

// credentialOptions are the options that send the user's credentials to
// the agent of card (nil with --endpoint) as its security schemes say,
// or a token "auth login" kept for the card's origin when no --bearer is
// given.
func (o *options) credentialOptions(card *a2a.AgentCard) ([]a2a.Option, error) {
	var stored *storedToken
	if o.bearer == "" && card != nil && card.Origin() != "" {
		t, err := loadToken(configDir(o.env), card.Origin())
		if err != nil {
			o.errf("a2a: warning: the token kept for %s is not used: %v\n", o.shownURL(card.Origin()), err)
		}
		if t != nil {
			t.client = o.baseClient // a refresh trusts what the calls trust (--cacert, --cert, --insecure)
			t.learn = o.redactor().Learn
			t.told(t.AccessToken)
			t.told(t.RefreshToken)
		}
		stored = t
	}
	opts, wrap, err := credentialPlan(card, o.bearer, o.apiKey, stored)
	if err != nil {
		return nil, usageError{msg: err.Error()}
	}
	// Nothing to send where the card requires something: a stored token
	// the card cannot take is left out by the plan; a client certificate
	// answers a mutual TLS scheme.
	sending := len(opts) > 0 || wrap != nil || o.certFile != ""
	if card != nil && !sending && needsCredentials(card) {
		return nil, credentialsMissing{schemes: schemeNames(card)}
	}
	o.credWrap, o.storedUsed = wrap, stored != nil && o.bearer == "" && len(opts) > 0
	if o.insecure && stored != nil && !o.credentialGiven() {
		o.errf("a2a: %s\n", insecureWarning(true)) // the kept token goes too
	}
	return opts, nil
}

// credentialsMissing is the error of a card that requires credentials
// when none was given: nothing is sent (A2ACLI_ERR_CREDENTIALS_MISSING).
type credentialsMissing struct{ schemes []string }

func (e credentialsMissing) Error() string {
	return "the agent's card requires credentials (" + strings.Join(e.schemes, ", ") + ") and none was given"
}

// schemeNames are the card's security schemes, each with its kind.
func schemeNames(card *a2a.AgentCard) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(card.SecuritySchemes)) {
		out = append(out, name+": "+card.SecuritySchemes[name].Type)
	}
	return out
}

// credentialsHint is what to give for the schemes of card.
func credentialsHint(card *a2a.AgentCard) string {
	var hints []string
	for _, s := range card.SecuritySchemes {
		switch s.Type {
		case "apiKey":
			hints = append(hints, "--api-key (A2ACLI_API_KEY)")
		case "http":
			hints = append(hints, "--bearer (A2ACLI_BEARER)")
		case "oauth2", "openIdConnect":
			hints = append(hints, "a2a auth login, or --bearer")
		}
	}
	slices.Sort(hints)
	return "give " + strings.Join(slices.Compact(hints), "; or ")
}
