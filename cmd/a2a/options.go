package main

import (
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// options are a command's flags, the global ones and its own, each read
// from the command line, else from its A2ACLI_ variable (the environment,
// then the dotenv files: load), else its default.
type options struct {
	cmd  *command
	name string
	env  env
	fs   *flag.FlagSet
	// source names where each flag's value came from ("flag",
	// "environment", "file PATH"; absent: the default), by long name.
	source map[string]string
	// short names each short flag's long one ("a" → "agent-card").
	short map[string]string

	// The agent, and how to reach it.
	agentCard, endpoint, a2aVersion string
	transport                       transportList
	bearer, apiKey                  string
	workspace, agentID, agentCode   string
	svcParams                       paramList
	tenant                          string
	extensions                      extensionList
	cardKeys, jkuHosts              string
	requireSigned, noCardCache      bool
	insecure                        bool
	certFile, keyFile, caFile       string
	timeout, pollInterval           time.Duration
	retries                         int
	maxBytes                        int64
	output                          string
	debug, verbose                  bool
	configPath                      string
	taskExitCodes                   bool
	showVersion                     bool
	stream                          bool

	// The commands' own.
	parts                          partFlags
	metadata, taskID, contextID    string
	async, wait, cancelOnInt       bool
	history                        int
	status, pageToken              string
	pageSize                       int
	validate, extended             bool
	dir                            string
	force                          bool
	token, scheme, credentials, id string
	flow, clientID, clientSecret   string
	scopes                         stringList
	pushReceiver, pushURL          string
	demoVersion, demoAddr          string
	demoAnyAddr                    bool
	demoStep                       time.Duration

	// The positional arguments, once the command line is read, and the
	// redactor of every secret it holds (redactor).
	args []string
	red  *redact.Redactor

	// usable reports whether the command can use a binding (version
	// ProtocolV03 or ProtocolV10, transport), for the card's choice; nil
	// for every one. usableText says which it can use, after "no
	// interface of the card", for --debug.
	usable     func(version, transport string) bool
	usableText string

	// What the command learnt while it ran: the card read (nil with
	// --endpoint), the version and transport spoken, and whether a
	// credential was sent.
	card                    *a2a.AgentCard
	spoken, spokenTransport string
	storedUsed              bool                                      // a token kept by "auth login" was sent
	credWrap                func(http.RoundTripper) http.RoundTripper // an API key in a query or cookie
	baseClient              *http.Client                              // --insecure, --cert, --cacert
	settings                *settings                                 // what load read, for config show
}

var (
	errHelp    = flag.ErrHelp
	errVersion = errors.New("version asked")
)

// newOptions makes the options of cmd (nil before a command is known):
// the flags every command takes, and the agent's for a command that
// talks to one. Defaults are the built-in ones; load applies the
// environment and the files.
func newOptions(cmd *command, e env) *options {
	o := &options{cmd: cmd, env: e, source: map[string]string{}, short: map[string]string{}}
	if cmd != nil {
		o.name = cmd.name()
	}
	o.fs = flag.NewFlagSet("a2a "+o.name, flag.ContinueOnError)
	o.fs.SetOutput(discard{})
	o.fs.Usage = func() {}
	fs := o.fs
	o.stringVar(&o.output, "output", "o", "text", "output format: text or json")
	fs.StringVar(&o.configPath, "config", "", "read settings from this .env file instead of the local .env")
	fs.BoolVar(&o.debug, "debug", false, "log how the command works to stderr: each request, its choice of binding, the raw bodies (credentials redacted)")
	o.boolVar(&o.showVersion, "version", "v", false, "print the version and exit")
	if cmd == nil || !cmd.agent {
		return o
	}
	o.stringVar(&o.agentCard, "agent-card", "a", "", "the agent: its host, site or card URL, an endpoint URL, or a card file")
	o.stringVar(&o.endpoint, "endpoint", "e", "", "call this endpoint URL directly, without reading a card")
	fs.StringVar(&o.a2aVersion, "a2a-version", "", "A2A version to speak: 1.0, or 0.3 (the opt-in below 1.0); empty: the highest both speak, at least 1.0")
	fs.Var(&o.transport, "transport", "binding, most wanted first, repeatable: JSONRPC, HTTP+JSON (default: the card's order)")
	fs.StringVar(&o.bearer, "bearer", "", "bearer token, sent as the card's scheme says (visible in the process list: prefer A2ACLI_BEARER)")
	fs.StringVar(&o.apiKey, "api-key", "", "API key, sent where the card's apiKey scheme says, else as X-API-Key (prefer A2ACLI_API_KEY)")
	fs.StringVar(&o.workspace, "workspace", "", "X-Workspace-ID header (the Caoliao gateway)")
	fs.StringVar(&o.agentID, "agent-id", "", `"agent_id" in every request body (the Caoliao gateway)`)
	fs.StringVar(&o.agentCode, "agent-code", "", `"agent_code" in every request body (the Caoliao gateway)`)
	fs.Var(&o.svcParams, "svc-param", "A2A service parameter K:V (or K=V), sent as an HTTP header; repeatable")
	fs.StringVar(&o.tenant, "tenant", "", "the tenant to send (default: the card's entry's)")
	fs.Var(&o.extensions, "extension", "activate the A2A extension URI on every request; repeatable")
	fs.StringVar(&o.cardKeys, "card-keys", "", "verify the card's signatures with the public keys of this JWK Set file")
	fs.StringVar(&o.jkuHosts, "jku-host", "", "fetch a signature's jku key set from these https hosts, comma-separated")
	fs.BoolVar(&o.requireSigned, "require-signed-card", false, "refuse a card whose signature does not verify")
	fs.BoolVar(&o.noCardCache, "no-card-cache", false, "read the agent's card from the network, and keep no copy of it")
	fs.BoolVar(&o.insecure, "insecure", false, "do not verify the agent's TLS certificate (development only)")
	fs.StringVar(&o.certFile, "cert", "", "client certificate (PEM) for mutual TLS")
	fs.StringVar(&o.keyFile, "key", "", "the client certificate's private key (PEM)")
	fs.StringVar(&o.caFile, "cacert", "", "also trust the CA certificates of this PEM file")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "how long the command may take, waits included")
	fs.DurationVar(&o.pollInterval, "poll-interval", 2*time.Second, "first wait between polls of a task (it grows to 5 times this, at most 30s)")
	fs.IntVar(&o.retries, "retries", 3, "retries of a request that is safe to send again (0..20)")
	fs.Int64Var(&o.maxBytes, "max-bytes", a2a.DefaultMaxResponseBytes, "cap on the size of a reply, in bytes")
	fs.BoolVar(&o.verbose, "verbose", false, "show everything exchanged: the message sent, the history, each part's type and metadata")
	fs.BoolVar(&o.taskExitCodes, "task-exit-codes", false, "exit 10 for a failed, canceled or rejected task, 11 for one waiting for you, 12 for one not finished")
	return o
}

// commandOptions is newOptions with cmd's own flags added: every flag cmd
// takes, at its default.
func commandOptions(cmd *command, e env) *options {
	o := newOptions(cmd, e)
	if cmd.flags != nil {
		cmd.flags(o)
	}
	return o
}

// defaultOptions are every command's options at their defaults, in the
// command tree's order, made once: what completion, config show and the
// settings' names read of the flags.
var defaultOptions = sync.OnceValue(func() []*options {
	out := make([]*options, len(commands))
	for i := range commands {
		out[i] = commandOptions(&commands[i], env{getenv: func(string) string { return "" }})
	}
	return out
})

// stringVar and boolVar define a flag with a long and a short name.
func (o *options) stringVar(p *string, long, short, def, usage string) {
	o.fs.StringVar(p, long, def, usage)
	o.fs.StringVar(p, short, def, usage)
	o.short[short] = long
}

func (o *options) boolVar(p *bool, long, short string, def bool, usage string) {
	o.fs.BoolVar(p, long, def, usage)
	o.fs.BoolVar(p, short, def, usage)
	o.short[short] = long
}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// check refuses, before anything is sent, what no call could carry.
func (o *options) check() error {
	// A flag beats a variable: -e on the command line calls that
	// endpoint whatever A2ACLI_AGENT_CARD says, and -a that card
	// whatever A2ACLI_ENDPOINT says.
	switch {
	case o.source["endpoint"] == "flag" && o.source["agent-card"] != "flag":
		o.agentCard = ""
	case o.source["agent-card"] == "flag" && o.source["endpoint"] != "flag":
		o.endpoint = ""
	}
	switch {
	case o.output != "text" && o.output != "json":
		return usagef("--output %s: want text or json", quote(o.output))
	case o.cmd == nil || !o.cmd.agent:
		return nil
	case o.agentCard != "" && o.endpoint != "":
		return usagef("--agent-card and --endpoint are exclusive: give the agent's card, or the endpoint to call without one")
	case o.timeout <= 0:
		return usagef("--timeout must be a positive duration such as 30s")
	case o.pollInterval <= 0:
		return usagef("--poll-interval must be a positive duration such as 2s")
	case o.pollInterval < 10*time.Millisecond:
		return usagef("--poll-interval %s is under 10ms: the agent would be asked hundreds of times a second", o.pollInterval)
	case o.retries < 0 || o.retries > 20:
		return usagef("--retries must be 0..20")
	case o.maxBytes < 1:
		return usagef("--max-bytes must be positive")
	case o.a2aVersion != "" && o.a2aVersion != a2a.ProtocolV10 && o.a2aVersion != a2a.ProtocolV03:
		return usagef("--a2a-version %s: want 1.0 or 0.3 (or nothing: the highest both speak, at least 1.0)", quote(o.a2aVersion))
	case o.transport.bad != "":
		return usagef("--transport: %s", o.transport.bad)
	case o.agentID != "" && o.agentCode != "":
		return usagef("--agent-id and --agent-code are exclusive")
	case o.pageSize < 0 || o.pageSize > 100:
		return usagef("--page-size must be 0..100")
	case o.status != "" && !o.canonicalStatus():
		return usagef("--status %s: want submitted, working, input-required, auth-required, completed, canceled, failed or rejected", quote(o.status))
	case o.svcParams.bad:
		return errNotShown
	case (o.certFile == "") != (o.keyFile == ""):
		return usagef("--cert and --key go together")
	case o.async && o.source["wait"] == "flag" && o.source["async"] == "flag":
		return usagef("--async and --wait contradict each other: give one")
	}
	o.warnAgentSource()
	for _, kv := range o.svcParams.kv {
		switch strings.ToLower(kv[0]) {
		case "authorization", "x-api-key", "cookie", "proxy-authorization":
			o.errf("a2a: warning: --svc-param %s carries a credential: --bearer and --api-key send it as the card's schemes say, and only to the agent's interface\n", kv[0])
		}
	}
	for _, id := range []string{"task-id", "context-id"} {
		if src := o.source[id]; src != "" && src != "flag" {
			o.errf("a2a: --%s comes from the %s (%s)\n", id, src, envName(id))
		}
	}
	_, err := a2a.NewClient("http://127.0.0.1/", o.clientOptions(a2a.ProtocolV10, "")...) // the options' own checks
	if err != nil {
		return usageError{msg: inFlags(strings.TrimPrefix(err.Error(), "a2a: "))}
	}
	if o.baseClient, err = tlsClient(o.insecure, o.certFile, o.keyFile, o.caFile); err != nil {
		return usageError{msg: err.Error()}
	}
	if o.insecure {
		o.errf("a2a: %s\n", insecureWarning(o.credentialGiven()))
	}
	return nil
}

// canonicalStatus reads --status in any of the spellings the agent's
// JSON uses (completed, COMPLETED, TASK_STATE_COMPLETED, input_required)
// as its short name, and reports whether it is a state.
func (o *options) canonicalStatus() bool {
	st := strings.ToLower(strings.TrimPrefix(strings.ToUpper(o.status), "TASK_STATE_"))
	st = strings.ReplaceAll(st, "_", "-")
	if st == "cancelled" {
		st = "canceled"
	}
	if s := a2a.TaskState(st); s.Known() && s != a2a.TaskStateUnknown {
		o.status = st
		return true
	}
	return false
}

// json reports whether the output is JSON.
func (o *options) json() bool { return o.output == "json" }

// clientOptions are the SDK options the flags make, for a client that
// speaks version (the tenant only for v1.0) over transport ("" for the
// SDK's default, JSON-RPC). The credentials are not among them: see
// credentialOptions.
func (o *options) clientOptions(version, transport string) []a2a.Option {
	opts := o.baseOptions()
	if o.workspace != "" {
		opts = append(opts, a2a.WithWorkspace(o.workspace))
	}
	if o.agentID != "" {
		opts = append(opts, a2a.WithAgentID(o.agentID))
	}
	if o.agentCode != "" {
		opts = append(opts, a2a.WithAgentCode(o.agentCode))
	}
	for _, h := range o.svcParams.kv {
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
	return opts
}

// baseOptions are the options of every request: retries, the size cap,
// the user agent and --debug's log.
func (o *options) baseOptions() []a2a.Option {
	opts := []a2a.Option{a2a.WithMaxRetries(o.retries), a2a.WithMaxResponseBytes(o.maxBytes), a2a.WithUserAgent("a2a-cli (caoliao-a2a-go)")}
	if o.debug {
		opts = append(opts, a2a.WithLogger(slog.New(slog.NewTextHandler(o.logWriter(), &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	return opts
}

// checkURL refuses a URL the client cannot call, before anything is sent.
func (o *options) checkURL(flagName, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("%s %s is not an http:// or https:// URL", flagName, quote(o.shownURL(raw)))
	}
	return nil
}

// debugf writes one --debug line to stderr.
func (o *options) debugf(format string, args ...any) {
	if o.debug {
		o.errf("a2a: "+format+"\n", args...)
	}
}

// credentialGiven reports whether the user gave a credential.
func (o *options) credentialGiven() bool {
	return o.bearer != "" || o.apiKey != "" || slices.ContainsFunc(o.svcParams.kv, func(kv [2]string) bool {
		return strings.EqualFold(kv[0], "Authorization") || strings.EqualFold(kv[0], "X-API-Key")
	})
}
