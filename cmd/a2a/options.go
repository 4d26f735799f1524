package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// options are a command's flags: the common ones, read from the
// environment first, and the command's own.
type options struct {
	name string
	env  env
	fs   *flag.FlagSet

	apiKey, bearer, workspace, agentID, agentCode string
	headers                                       headerList
	protocol, tenant                              string
	autoVersion                                   string // with --protocol auto and no card, the version to speak ("" for v0.3)
	transport                                     transportList
	timeout                                       time.Duration
	retries                                       int
	maxBytes                                      int64
	json, verbose                                 bool

	// The commands' own.
	data, dataOut, taskID, contextID string
	wait, noBlock, cancelOnInt       bool
	history, maxAttempts             int
	status                           string
	pageSize, listLimit              int
	pageToken                        string
	token, scheme, credentials, id   string
	fakeVersion                      string

	// The positional arguments, once the command line is read, and the
	// redactor of every secret it holds (redactor).
	args []string
	red  *redact.Redactor

	// usable reports whether the command can use a binding (version
	// ProtocolV03 or ProtocolV10, transport), for the card's choice; nil
	// for every one. usableText says which it can use, after "no
	// interface of the card", for -v.
	usable     func(version, transport string) bool
	usableText string

	// The version and transport the client of the call speaks, for hints.
	spoken, spokenTransport string
	// How the last call ended, and whether call asks again in v1.0 when
	// it ended in a refusal of v0.3 (refusedVersion).
	lastErr  error
	askAgain bool
}

// headerList is the repeatable --header K=V. An entry that is not K=V is
// kept aside and reported by check, without its text: it may be a
// secret ("Authorization: Bearer …").
type headerList struct {
	kv  [][2]string
	bad bool
}

func (h *headerList) String() string { return "" }

func (h *headerList) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" {
		h.bad = true
		return nil
	}
	h.kv = append(h.kv, [2]string{strings.TrimSpace(k), val})
	return nil
}

var errHelp = flag.ErrHelp

func newOptions(name string, e env) *options {
	o := &options{name: name, env: e, fs: flag.NewFlagSet("a2a "+name, flag.ContinueOnError)}
	fs := o.fs
	fs.SetOutput(o.flagWriter())
	get := e.getenv
	// The secrets' defaults are set after their flags, so "-h" and a flag
	// error, which print every flag's default, do not print them.
	fs.StringVar(&o.apiKey, "api-key", "", "X-API-Key header (A2A_API_KEY)")
	fs.StringVar(&o.bearer, "bearer", "", "bearer token (A2A_BEARER_TOKEN)")
	o.apiKey, o.bearer = get("A2A_API_KEY"), get("A2A_BEARER_TOKEN")
	fs.StringVar(&o.workspace, "workspace", get("A2A_WORKSPACE_ID"), "X-Workspace-ID header (A2A_WORKSPACE_ID)")
	fs.StringVar(&o.agentID, "agent-id", get("A2A_AGENT_ID"), `"agent_id" in every body (A2A_AGENT_ID)`)
	fs.StringVar(&o.agentCode, "agent-code", get("A2A_AGENT_CODE"), `"agent_code" in every body (A2A_AGENT_CODE)`)
	fs.Var(&o.headers, "header", "extra header K=V, repeatable (A2A_HEADERS: K=V;K2=V2)")
	fs.StringVar(&o.protocol, "protocol", or(get("A2A_PROTOCOL"), "auto"), "auto, 0.3 or 1.0 (A2A_PROTOCOL)")
	o.transport.fromEnv(get("A2A_TRANSPORT"))
	fs.Var(&o.transport, "transport", "auto, or jsonrpc and http+json, most wanted first: comma-separated or repeated (A2A_TRANSPORT)")
	fs.StringVar(&o.tenant, "tenant", get("A2A_TENANT"), "tenant of a v1.0 endpoint (A2A_TENANT)")
	fs.DurationVar(&o.timeout, "timeout", envDuration(get("A2A_TIMEOUT"), 2*time.Minute), "bound on the whole command (A2A_TIMEOUT)")
	fs.IntVar(&o.retries, "retries", envInt(get("A2A_RETRIES"), 3 /* the SDK's default too */), "retries of a safe request (A2A_RETRIES)")
	fs.Int64Var(&o.maxBytes, "max-bytes", int64(envInt(get("A2A_MAX_BYTES"), a2a.DefaultMaxResponseBytes)), "cap on a reply's size (A2A_MAX_BYTES)")
	fs.BoolVar(&o.json, "json", get("A2A_JSON") == "1", "print the agent's bytes as received (A2A_JSON=1)")
	fs.BoolVar(&o.verbose, "v", get("A2A_VERBOSE") == "1", "log each attempt to stderr (A2A_VERBOSE=1)")
	return o
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// envDuration and envInt read an environment default; a bad one is left
// for check to report, as its flag's would be.
func envDuration(s string, def time.Duration) time.Duration {
	if s == "" {
		return def
	}
	if d, err := time.ParseDuration(s); err == nil {
		return d
	}
	return -1
}

func envInt(s string, def int) int {
	if s == "" {
		return def
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return -1
}

// Each command's own flags.

func sendFlags(o *options) {
	o.fs.StringVar(&o.data, "data", "", "add a DataPart: JSON from FILE, or - for stdin")
	o.fs.StringVar(&o.taskID, "task", "", "continue the task ID (answer an input-required task)")
	o.fs.StringVar(&o.contextID, "context", "", "the context ID of the conversation")
	o.fs.BoolVar(&o.wait, "wait", false, "poll the task until it ends or waits for input")
	o.fs.BoolVar(&o.noBlock, "no-block", false, "ask the agent to answer at once (configuration.blocking false)")
	o.fs.StringVar(&o.dataOut, "data-out", "", "write the first artifact's DataPart to FILE")
	pollFlags(o)
}

func pollFlags(o *options) {
	o.fs.IntVar(&o.maxAttempts, "max-attempts", 60, "at most this many polls")
	o.fs.BoolVar(&o.cancelOnInt, "cancel-on-interrupt", false, "on Ctrl-C, cancel the task before stopping")
	if o.fs.Lookup("history") == nil {
		historyFlag(o)
	}
}

func historyFlag(o *options) {
	o.fs.IntVar(&o.history, "history", -1, "ask for at most N messages of history")
}

func streamFlags(o *options) {
	o.fs.StringVar(&o.taskID, "task", "", "continue the task ID")
	o.fs.StringVar(&o.contextID, "context", "", "the context ID of the conversation")
	o.fs.StringVar(&o.data, "data", "", "add a DataPart: JSON from FILE, or - for stdin")
	o.fs.BoolVar(&o.cancelOnInt, "cancel-on-interrupt", false, "on Ctrl-C, cancel the task before stopping")
}

func tasksFlags(o *options) {
	o.fs.StringVar(&o.contextID, "context", "", "only the tasks of this context")
	o.fs.StringVar(&o.status, "status", "", "only tasks in this state (completed, working, …)")
	o.fs.IntVar(&o.pageSize, "page-size", 0, "tasks a page (1..100; 0: the agent's default)")
	o.fs.StringVar(&o.pageToken, "page-token", "", "start at this page (the token a listing stopped at)")
	o.fs.IntVar(&o.listLimit, "limit", 10000, "stop after this many tasks, printing how to list on")
	historyFlag(o)
}

func pushFlags(o *options) {
	o.fs.StringVar(&o.token, "token", "", "set: a token the agent sends back to the webhook")
	o.fs.StringVar(&o.scheme, "scheme", "", "set: the webhook's authentication scheme, e.g. Bearer")
	o.fs.StringVar(&o.credentials, "credentials", "", "set: the webhook's credentials")
	o.fs.StringVar(&o.id, "id", "", "set: the config's id")
}

func fakeFlags(o *options) {
	o.fs.StringVar(&o.fakeVersion, "version", "0.3", "the A2A version the agent speaks: 0.3 or 1.0 (else --protocol's)")
}

// parse parses args, flags anywhere among the positional arguments ("--"
// ends the flags), and returns the positional ones.
func (o *options) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := o.fs.Parse(args); err != nil {
			return nil, err
		}
		args = o.fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// check refuses, before anything is sent, what no call could carry.
func (o *options) check() error {
	switch {
	case o.timeout <= 0:
		return errors.New("--timeout (or A2A_TIMEOUT) must be a positive duration such as 30s")
	case o.retries < 0 || o.retries > 20:
		return errors.New("--retries (or A2A_RETRIES) must be 0..20")
	case o.maxBytes < 1:
		return errors.New("--max-bytes (or A2A_MAX_BYTES) must be positive")
	case o.protocol != "auto" && o.protocol != "0.3" && o.protocol != "1.0":
		return fmt.Errorf("--protocol %q: want auto, 0.3 or 1.0", o.protocol)
	case o.transport.bad != "":
		return fmt.Errorf("--transport (or A2A_TRANSPORT): %s", o.transport.bad)
	case o.agentID != "" && o.agentCode != "":
		return errors.New("--agent-id and --agent-code are exclusive")
	case o.fs.Lookup("max-attempts") != nil && o.maxAttempts < 1:
		return errors.New("--max-attempts must be at least 1")
	case o.pageSize < 0 || o.pageSize > 100:
		return errors.New("--page-size must be 0..100")
	case o.status != "" && (!a2a.TaskState(o.status).Known() || a2a.TaskState(o.status) == a2a.TaskStateUnknown):
		return fmt.Errorf("--status %q: want submitted, working, input-required, auth-required, completed, canceled, failed or rejected", o.status)
	}
	if h := o.env.getenv("A2A_HEADERS"); h != "" {
		for _, kv := range strings.Split(h, ";") {
			if strings.TrimSpace(kv) != "" {
				o.headers.Set(kv)
			}
		}
	}
	if o.headers.bad {
		return errNotShown
	}
	_, err := a2a.NewClient("http://127.0.0.1/", o.clientOptions(a2a.ProtocolV10, o.transport.only())...) // the options' own checks
	return err
}

// clientOptions are the SDK options the flags make, for a client that
// speaks version (the tenant only for v1.0) over transport ("" for the
// SDK's default, JSON-RPC).
func (o *options) clientOptions(version, transport string) []a2a.Option {
	opts := []a2a.Option{a2a.WithMaxRetries(o.retries), a2a.WithMaxResponseBytes(o.maxBytes), a2a.WithUserAgent("a2a-cli (caoliao-a2a-go)")}
	if o.apiKey != "" {
		opts = append(opts, a2a.WithAPIKey(o.apiKey))
	}
	if o.bearer != "" {
		opts = append(opts, a2a.WithBearerToken(o.bearer))
	}
	if o.workspace != "" {
		opts = append(opts, a2a.WithWorkspace(o.workspace))
	}
	if o.agentID != "" {
		opts = append(opts, a2a.WithAgentID(o.agentID))
	}
	if o.agentCode != "" {
		opts = append(opts, a2a.WithAgentCode(o.agentCode))
	}
	for _, h := range o.headers.kv {
		opts = append(opts, a2a.WithHeader(h[0], h[1]))
	}
	if version != "" {
		opts = append(opts, a2a.WithProtocolVersion(version))
	}
	if transport != "" {
		opts = append(opts, a2a.WithTransports(transport))
	}
	if o.tenant != "" && version == a2a.ProtocolV10 {
		opts = append(opts, a2a.WithTenant(o.tenant))
	}
	if o.verbose {
		opts = append(opts, a2a.WithLogger(slog.New(slog.NewTextHandler(o.logWriter(), &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	return opts
}

// checkURL refuses a URL the client cannot call, before anything is sent.
func (o *options) checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("%s is not an http:// or https:// URL", quote(o.shownURL(raw)))
	}
	return nil
}

// client makes the client for endpoint in the version --protocol says,
// over the transport --transport says. With --protocol auto, or several
// transports to choose among, it takes the binding (and the tenant) of
// the card's interface for this URL (cardChoice), at the URL the card
// gives it; otherwise, or without a card, the version named or v0.3, over
// the transport named or JSON-RPC, at endpoint. It reports the choice
// with -v.
func (o *options) client(ctx context.Context, endpoint string) (*a2a.Client, error) {
	if err := o.checkURL(endpoint); err != nil {
		return nil, err
	}
	in := a2a.AgentInterface{ProtocolVersion: o.protocol, ProtocolBinding: o.transport.only()}
	if in.ProtocolVersion == "auto" || len(o.transport.names) > 1 {
		var err error
		if in, err = o.cardChoice(ctx, endpoint); err != nil {
			return nil, err
		}
	}
	version := in.ProtocolVersion
	if o.tenant != "" && version != a2a.ProtocolV10 {
		return nil, usagef("--tenant needs an A2A v1.0 endpoint; this one speaks v%s (--protocol 1.0 to insist)", version)
	}
	opts := o.clientOptions(version, in.ProtocolBinding)
	if o.tenant == "" && in.Tenant != "" {
		opts = append(opts, a2a.WithTenant(in.Tenant))
	}
	return a2a.NewClient(cmp.Or(in.URL, endpoint), opts...)
}

// cardChoice is the interface the agent's card gives endpoint, its
// binding and version chosen as NewClientFromCard chooses (card order;
// --transport's order first when it names transports; --protocol's
// version alone when it names one; only those the command can use,
// usable), read at endpoint, then at its site:
//   - among the card's interfaces at this URL (sameEndpoint: a trailing
//     slash aside), the entry chosen, with its URL and tenant;
//   - when endpoint is one of the card's interfaces but none there fits
//     (--transport jsonrpc at its HTTP+JSON URL), the entry the card
//     gives the binding asked for, with its URL and tenant, when it is
//     on endpoint's origin (the credentials go nowhere else); on another
//     origin, a usage error naming its URL;
//   - when endpoint is not on the card (a gateway's URL), the card's
//     choice of binding and version, spoken at endpoint (URL empty),
//     without a tenant.
//
// Without a card, or one with nothing that fits, it is the version named
// (or the command's, autoVersion) or v0.3, over the first transport
// named or JSON-RPC, at endpoint.
func (o *options) cardChoice(ctx context.Context, endpoint string) (a2a.AgentInterface, error) {
	ctx, cancel := context.WithTimeout(ctx, min(o.timeout, 10*time.Second))
	defer cancel()
	opts := append(o.clientOptions("", ""), a2a.WithMaxRetries(0))
	what := "no agent card"
	for _, base := range []string{endpoint, siteOf(endpoint)} {
		card, err := a2a.ResolveAgentCard(ctx, base, opts...)
		if err != nil {
			continue
		}
		what = "no interface of the card fits"
		if o.usable != nil {
			what = "no interface of the card " + o.usableText
		}
		here := func(in a2a.AgentInterface) bool { return sameEndpoint(in.URL, endpoint) }
		if c, err := a2a.NewClientFromCard(cardWith(card, func(in a2a.AgentInterface) bool { return here(in) && o.canUse(card, in) }), o.choiceOptions()...); err == nil {
			in := c.Interface()
			at := ""
			if in.URL != endpoint {
				at = ", at " + o.shownURL(in.URL) + " as the card writes it"
			}
			o.debugf("protocol: v%s, from the card's interface for %s (%s)%s", in.ProtocolVersion, o.shownURL(endpoint), in.ProtocolBinding, at)
			return in, nil
		}
		c, err := a2a.NewClientFromCard(cardWith(card, func(in a2a.AgentInterface) bool { return o.canUse(card, in) }), o.choiceOptions()...)
		if err != nil {
			continue
		}
		in := c.Interface()
		if !slices.ContainsFunc(card.Interfaces(), here) {
			o.debugf("protocol: v%s, the card's choice (%s)", in.ProtocolVersion, in.ProtocolBinding)
			return a2a.AgentInterface{ProtocolVersion: in.ProtocolVersion, ProtocolBinding: in.ProtocolBinding}, nil
		}
		// endpoint is the card's interface for another binding than the
		// one asked for, which the card serves at in.URL.
		if siteOf(in.URL) != siteOf(endpoint) {
			return in, usagef("%s is not the agent's %s v%s interface: its card gives %s; give that URL", o.shownURL(endpoint), in.ProtocolBinding, in.ProtocolVersion, o.shownURL(in.URL))
		}
		o.debugf("protocol: v%s, the card's %s interface, at %s (not %s)", in.ProtocolVersion, in.ProtocolBinding, o.shownURL(in.URL), o.shownURL(endpoint))
		return in, nil
	}
	in := a2a.AgentInterface{ProtocolVersion: or(o.autoVersion, a2a.ProtocolV03), ProtocolBinding: a2a.TransportJSONRPC}
	if o.protocol != "auto" {
		in.ProtocolVersion = o.protocol
	}
	if len(o.transport.names) > 0 {
		in.ProtocolBinding = o.transport.names[0]
	}
	o.debugf("protocol: v%s (%s; %s)", in.ProtocolVersion, what, in.ProtocolBinding)
	return in, nil
}

// canUse reports whether the command can use in, an interface of card:
// any, unless the command says otherwise (usable).
func (o *options) canUse(card *a2a.AgentCard, in a2a.AgentInterface) bool {
	return o.usable == nil || o.usable(entryVersion(card, in), in.ProtocolBinding)
}

// entryVersion is the version a client speaks at in, an interface of
// card: "1.0" for a 1.x entry, "0.3" for a 0.x one; on a v1.0 card
// (supportedInterfaces) an entry without a version is 1.0, as
// NewClientFromCard reads it; every entry of a v0.3 card is 0.3.
func entryVersion(card *a2a.AgentCard, in a2a.AgentInterface) string {
	if len(card.SupportedInterfaces) > 0 && (in.ProtocolVersion == "" || strings.HasPrefix(in.ProtocolVersion, "1.")) {
		return a2a.ProtocolV10
	}
	return a2a.ProtocolV03
}

// sameEndpoint reports whether URLs a and b name one endpoint: equal, or
// but for a trailing slash, or the case of their scheme and host.
func sameEndpoint(a, b string) bool {
	if a == b {
		return true
	}
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host) && ua.User.String() == ub.User.String() &&
		strings.TrimSuffix(ua.EscapedPath(), "/") == strings.TrimSuffix(ub.EscapedPath(), "/") &&
		ua.RawQuery == ub.RawQuery && ua.Fragment == ub.Fragment
}

// choiceOptions are the SDK options that choose an interface on a card
// as the flags ask: --transport's order (with an agent selector and no
// --transport, JSON-RPC first: HTTP+JSON has no place for it) and
// --protocol's version.
func (o *options) choiceOptions() []a2a.Option {
	var opts []a2a.Option
	switch {
	case len(o.transport.names) > 0:
		opts = append(opts, a2a.WithPreferredTransports(o.transport.names...))
	case o.agentID != "" || o.agentCode != "":
		opts = append(opts, a2a.WithPreferredTransports(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
	}
	if o.protocol != "auto" {
		opts = append(opts, a2a.WithProtocolVersion(o.protocol))
	}
	return opts
}

// cardWith is card with only the interfaces keep keeps, in the card's
// shape (a v1.0 card's list, or a v0.3 card's additional interfaces with
// its version), for NewClientFromCard to choose among.
func cardWith(card *a2a.AgentCard, keep func(a2a.AgentInterface) bool) *a2a.AgentCard {
	var ins []a2a.AgentInterface
	for _, in := range card.Interfaces() {
		if keep(in) {
			ins = append(ins, in)
		}
	}
	if len(card.SupportedInterfaces) > 0 {
		return &a2a.AgentCard{SupportedInterfaces: ins}
	}
	return &a2a.AgentCard{ProtocolVersion: card.ProtocolVersion, AdditionalInterfaces: ins}
}

// transportList is --transport: the transports to speak, most wanted
// first, named in any case, comma-separated or the flag repeated; none
// for auto (the card's choice). The command line replaces the
// environment's list. A bad name is kept for check to report.
type transportList struct {
	names   []string // a2a.TransportJSONRPC, a2a.TransportHTTPJSON
	bad     string
	flagged bool // set from the command line
}

func (l *transportList) String() string {
	if l == nil || len(l.names) == 0 {
		return "auto"
	}
	return strings.Join(l.names, ",")
}

func (l *transportList) Set(v string) error {
	if !l.flagged {
		*l = transportList{flagged: true}
	}
	l.add(v)
	return nil
}

// fromEnv sets the list from A2A_TRANSPORT.
func (l *transportList) fromEnv(v string) {
	if v != "" {
		l.add(v)
	}
}

func (l *transportList) add(v string) {
	for name := range strings.SplitSeq(v, ",") {
		name = strings.TrimSpace(name)
		canon := ""
		switch {
		case strings.EqualFold(name, "auto"):
			if l.bad == "" && (len(l.names) > 0 || strings.Contains(v, ",")) {
				l.bad = "auto stands alone: it is the card's choice"
			}
			continue
		case strings.EqualFold(name, a2a.TransportJSONRPC):
			canon = a2a.TransportJSONRPC
		case strings.EqualFold(name, a2a.TransportHTTPJSON):
			canon = a2a.TransportHTTPJSON
		}
		switch {
		case l.bad != "":
		case canon == "":
			l.bad = fmt.Sprintf("%s: want auto, or jsonrpc and http+json in the order wanted", quote(name))
		case slices.Contains(l.names, canon):
			l.bad = fmt.Sprintf("%s is named twice", quote(name))
		default:
			l.names = append(l.names, canon)
		}
	}
}

// only is the one transport named, or "" for auto or several.
func (l *transportList) only() string {
	if len(l.names) == 1 {
		return l.names[0]
	}
	return ""
}

// siteOf is the scheme and host of raw: where a site's card is.
func siteOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Scheme + "://" + u.Host
}

func (o *options) debugf(format string, args ...any) {
	if o.verbose {
		o.errf("a2a: "+format+"\n", args...)
	}
}
