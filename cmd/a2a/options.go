package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
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
	extensions                                    extensionList
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
	fakeVersion, fakeAddr            string
	fakeAnyAddr                      bool
	fakeStep                         time.Duration
	cardKeys, jkuHosts               string
	requireSigned                    bool

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
	// spokenByCard: the version spoken is the one the agent's card gave
	// (--protocol auto, cardChoice); askedAgain: call spoke v0.3, then
	// v1.0 (askAgain).
	spokenByCard, askedAgain bool
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

// extensionList is the repeatable --extension URI: the A2A extensions
// every request activates. Its URIs are checked by the package's option
// (check).
type extensionList []string

func (l *extensionList) String() string { return "" }

func (l *extensionList) Set(v string) error {
	*l = append(*l, v)
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
	fs.Var(&o.extensions, "extension", "activate the A2A extension URI on every request, repeatable")
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
	o.fs.StringVar(&o.fakeAddr, "addr", "127.0.0.1:0", "the host:port to listen on (port 0: a free one); loopback unless --allow-non-loopback")
	o.fs.BoolVar(&o.fakeAnyAddr, "allow-non-loopback", false, "let --addr be an address other machines reach (the fake has no authentication)")
	o.fs.DurationVar(&o.fakeStep, "step", 500*time.Millisecond, "how often a task in progress moves one state on, by itself, with push delivery (0: one state per tasks/get)")
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
	if len(o.extensions) > 0 {
		opts = append(opts, a2a.WithExtensions(o.extensions...))
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

// debugf writes one -v line to stderr.
func (o *options) debugf(format string, args ...any) {
	if o.verbose {
		o.errf("a2a: "+format+"\n", args...)
	}
}
