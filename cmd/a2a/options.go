package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
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

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// notFromEnv are the flags that are never read from the environment or a
// file: those the specification's §7.2 names, and a message's parts.
var notFromEnv = map[string]bool{"stream": true, "help": true, "version": true, "config": true,
	// A message's content is typed, in order, never inherited.
	"text": true, "file": true, "data": true, "media-type": true}

// envName is the variable of a flag: A2ACLI_ and its long name in upper
// snake case (--agent-card: A2ACLI_AGENT_CARD).
func envName(long string) string {
	return "A2ACLI_" + strings.ToUpper(strings.NewReplacer("-", "_", "+", "_").Replace(long))
}

// paramList is the repeatable --svc-param K:V (or K=V): A2A service
// parameters, sent as HTTP headers. An entry that is neither is kept
// aside and reported by check, without its text: it may be a secret.
type paramList struct {
	kv  [][2]string
	bad bool
}

// String is how many there are (their values are secrets).
func (p *paramList) String() string {
	if p == nil || len(p.kv) == 0 {
		return ""
	}
	return fmt.Sprintf("%d %s", len(p.kv), plural(len(p.kv), "parameter"))
}

func (p *paramList) Set(v string) error {
	i := strings.IndexAny(v, ":=")
	if i <= 0 || strings.TrimSpace(v[:i]) == "" {
		p.bad = true
		return nil
	}
	p.kv = append(p.kv, [2]string{strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1:])})
	return nil
}

// extensionList is the repeatable --extension URI: the A2A extensions
// every request activates (checked by the package's option: check).
type extensionList []string

func (l *extensionList) String() string { return strings.Join(*l, ",") }

func (l *extensionList) Set(v string) error {
	for u := range strings.SplitSeq(v, ",") {
		if u = strings.TrimSpace(u); u != "" {
			*l = append(*l, u)
		}
	}
	return nil
}

// stringList is a repeatable flag of plain values.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, " ") }

func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// parse parses args, flags anywhere among the positional arguments ("--"
// ends the flags), and returns the positional ones. A flag error is said
// in one line, with the closest flag when the name is unknown.
func (o *options) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := o.fs.Parse(args); err != nil {
			return nil, o.flagError(err)
		}
		args = o.fs.Args()
		if o.showVersion {
			return nil, errVersion
		}
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			pos = append(pos, args[1:]...)
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	o.fs.Visit(func(f *flag.Flag) { o.source[o.long(f.Name)] = "flag" })
	return pos, nil
}

// long is the long name of flag name.
func (o *options) long(name string) string {
	if l, ok := o.short[name]; ok {
		return l
	}
	return name
}

// renamedFlags are the flags of releases before the A2A CLI
// specification and what replaced them.
var renamedFlags = map[string]string{
	"json": "-o json", "header": "--svc-param K:V", "task": "--task-id", "context": "--context-id",
	"no-block": "--async", "protocol": "--a2a-version (or -e/--endpoint URL)", "max-attempts": "--timeout",
	"data-out": `"a2a task download"`, "limit": "one page a call (--page-size, --page-token)",
}

// flagError rewrites the flag package's error in this command line's
// words: --name for -name, the closest flag for an unknown one.
func (o *options) flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		if now, ok := renamedFlags[name]; ok {
			return usagef("--%s is now %s (the A2A CLI specification's names; a2a %s --help)", name, now, o.name)
		}
		var names []string
		o.fs.VisitAll(func(f *flag.Flag) {
			if len(f.Name) > 1 {
				names = append(names, f.Name)
			}
		})
		if s := closest(name, names); s != "" {
			return usagef("unknown flag --%s; did you mean --%s? (a2a %s --help)", name, s, o.name)
		}
		return usagef("unknown flag --%s (a2a %s --help)", name, o.name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return usagef("--%s needs a value (a2a %s --help)", o.long(strings.TrimLeft(name, "-")), o.name)
	}
	// "invalid value "x" for flag -timeout: parse error"
	if i := strings.Index(msg, " for flag -"); i >= 0 {
		rest := msg[i+len(" for flag -"):]
		name, why, _ := strings.Cut(rest, ": ")
		if f := o.fs.Lookup(name); f != nil && strings.Contains(fmt.Sprintf("%T", f.Value), "duration") {
			why = "want a duration such as 30s, 500ms or 2m"
		}
		return usagef("--%s: %s%s", o.long(name), strings.TrimPrefix(msg[:i], "invalid value "), ifNotEmpty(": ", why))
	}
	return usagef("%s", msg)
}

func ifNotEmpty(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// load gives each flag not on the command line its value from its
// A2ACLI_ variable: the environment's, else the local .env's (or
// --config's), else the global .env's; it says on stderr what the files
// hold that it cannot use.
func (o *options) load() error {
	s, warnings, err := loadSettings(o.env, settingNames(), o.configPath)
	if err != nil {
		return usagef("%v", err)
	}
	o.settings = s
	for _, w := range warnings {
		o.errf("a2a: warning: %s\n", w)
	}
	var bad error
	o.fs.VisitAll(func(f *flag.Flag) {
		if _, alias := o.short[f.Name]; alias || notFromEnv[f.Name] || o.source[f.Name] != "" || bad != nil {
			return
		}
		st, ok := s.get(envName(f.Name))
		if !ok {
			return
		}
		values := []string{st.Value}
		if f.Name == "svc-param" {
			values = strings.Split(st.Value, ";")
		}
		for _, v := range values {
			if err := f.Value.Set(v); err != nil {
				bad = usagef("%s (from the %s): %v", envName(f.Name), st.Source, err)
				return
			}
		}
		o.source[f.Name] = st.Source
	})
	return bad
}

// settingNames are the A2ACLI_ variables of every command's flags: a
// .env may hold the settings of several commands, and only a name none
// has is warned about.
func settingNames() []string {
	seen := map[string]bool{}
	var names []string
	add := func(o *options) {
		o.fs.VisitAll(func(f *flag.Flag) {
			if _, alias := o.short[f.Name]; !alias && !notFromEnv[f.Name] && !seen[f.Name] {
				seen[f.Name] = true
				names = append(names, envName(f.Name))
			}
		})
	}
	for i := range commands {
		add(commandOptions(&commands[i], env{getenv: func(string) string { return "" }}))
	}
	return names
}

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

// warnAgentSource warns when a .env found by walking up from the working
// directory names the agent while a credential comes from elsewhere (the
// environment, the global file, a flag): such a file may be anyone's (a
// cloned repository's), and the credential would go to the agent it
// names.
func (o *options) warnAgentSource() {
	for _, agent := range []string{"agent-card", "endpoint"} {
		src := o.source[agent]
		if !strings.HasPrefix(src, "file ") || o.configPath != "" || src == "file "+globalConfigPath(o.env) {
			continue // not a .env found by walking up
		}
		for _, cred := range []string{"bearer", "api-key"} {
			if f := o.fs.Lookup(cred); f != nil && f.Value.String() != "" && o.source[cred] != src {
				o.errf("a2a: warning: the agent (%s) comes from the %s, and --%s from the %s: it is sent to that agent; check the file is yours\n",
					envName(agent), src, cred, cmpOr(o.source[cred], "default"))
			}
		}
	}
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

// errNotShown is the error of a --svc-param that is neither K:V nor K=V:
// its text may be a secret, so it is not repeated.
var errNotShown = usageError{msg: "a --svc-param (or A2ACLI_SVC_PARAM entry) is not K:V or K=V; it is not shown here, as it may hold a secret"}
