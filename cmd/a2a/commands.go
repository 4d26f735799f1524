package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func runCardGet(ctx context.Context, o *options, _ []string) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if o.endpoint != "" {
		return o.fail(usagef("card get reads a card: give -a/--agent-card, not --endpoint"))
	}
	if o.agentCard == "" {
		return o.fail(usagef("which agent? give -a/--agent-card with its host, card URL or card file (or A2ACLI_AGENT_CARD)"))
	}
	card, ref, err := o.readCard(ctx)
	if err != nil {
		return o.fail(err)
	}
	if o.extended {
		if card, err = o.extendedCard(ctx, card, ref); err != nil {
			return o.fail(err)
		}
	}
	var schema string
	if o.validate {
		var code int
		var ok bool
		if schema, code, ok = o.validated(card); !ok {
			return code
		}
	}
	if o.json() {
		o.outJSON(compact(card.Raw()))
		return exitOK
	}
	var chosen *a2a.AgentInterface
	if in, err := o.cardChoice(card, ref); err == nil {
		chosen = &in
	} else {
		o.errf("a2a: %v\n", err)
	}
	if schema != "" {
		o.field("Schema", "valid (A2A v"+schema+")")
	}
	o.printCard(card, chosen)
	return exitOK
}

// validated checks card against its version's schema (--validate); a
// card that breaks it is A2ACLI_ERR_CARD_INVALID, each problem listed.
func (o *options) validated(card *a2a.AgentCard) (string, int, bool) {
	version, problems := validateCard(card.Raw())
	if len(problems) == 0 {
		return version, exitOK, true
	}
	return version, o.fail(cardInvalid{fmt.Errorf("the card breaks the A2A v%s schema in %d %s: %s", version, len(problems), plural(len(problems), "place"), problemList(problems))}), false
}

// problemList is a card's schema problems on one line.
func problemList(problems []cardProblem) string {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = cmpOr(p.Pointer, "(card)") + ": " + p.Problem
	}
	return strings.Join(lines, "; ")
}

// extendedCard reads the authenticated extended card (--extended), only
// with a security scheme the public card declares (the specification's
// CARD_GET_003): credentials go nowhere the card does not ask for them.
func (o *options) extendedCard(ctx context.Context, card *a2a.AgentCard, ref agentRef) (*a2a.AgentCard, error) {
	if len(card.SecuritySchemes) == 0 {
		return nil, usagef("the agent's card declares no security scheme, so a2a sends no credentials for its extended card")
	}
	if !card.SupportsAuthenticatedExtendedCard && !card.Capabilities.ExtendedAgentCard {
		return nil, usagef("the agent's card does not offer an extended card")
	}
	in, err := o.cardChoice(card, ref)
	if err != nil {
		return nil, err
	}
	c, err := o.cardClient(card, in)
	if err != nil {
		return nil, err
	}
	o.spoken = c.ProtocolVersion()
	return c.GetExtendedAgentCard(ctx)
}

func runTaskList(ctx context.Context, o *options, _ []string) int {
	// ListTasks is in A2A v1.0 and in v0.3's HTTP+JSON, not in v0.3's
	// JSON-RPC: the card's choice among the interfaces that have it.
	o.usable, o.usableText = canList, "lists tasks (A2A v1.0, or v0.3 over HTTP+JSON)"
	req := a2a.ListTasksRequest{ContextID: o.contextID, Status: a2a.TaskState(o.status), PageSize: o.pageSize, PageToken: o.pageToken}
	var opts []a2a.CallOption
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		page, err := c.ListTasksPage(ctx, req, opts...)
		if err != nil {
			return o.fail(err)
		}
		if o.json() {
			o.outJSON(compact(listJSON(page)))
			return exitOK
		}
		for _, t := range page.Tasks {
			o.field("Task", t.ID)
			o.field("Context", t.ContextID)
			o.field("Status", statusText(t.Status))
			if t.Status.Timestamp != "" {
				o.field("Timestamp", t.Status.Timestamp)
			}
			o.outf("\n")
		}
		o.field("Tasks", len(page.Tasks))
		if page.NextPageToken != "" {
			o.field("Next page", "a2a task list"+o.sameAgent()+o.sameListing()+" --page-token "+quote(page.NextPageToken))
		}
		return exitOK
	})
}

// canList reports whether a binding has ListTasks: every one but v0.3's
// JSON-RPC.
func canList(version, transport string) bool {
	return version == a2a.ProtocolV10 || strings.EqualFold(transport, a2a.TransportHTTPJSON)
}

// sameListing is the flags, as sameAgent's, that ask for the same
// listing: its filters and page size.
func (o *options) sameListing() string {
	pageSize, history := "", ""
	if o.pageSize > 0 {
		pageSize = strconv.Itoa(o.pageSize)
	}
	if o.history >= 0 {
		history = strconv.Itoa(o.history)
	}
	return flagWords("context-id", o.contextID, "status", o.status, "page-size", pageSize, "history", history)
}

func runTaskSubscribe(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		task := &a2a.Task{ID: args[0]}
		events, refused, stop := opened(c.SubscribeToTask(ctx, args[0]))
		defer stop()
		if refused != nil { // a task that has ended cannot be followed: read it
			o.debugf("stream: refused (%v); reading the task", refused)
			return o.pollShown(ctx, c, task, o.stream)
		}
		return o.followAgain(ctx, c, events, task, o.stream)
	})
}

func runTaskDownload(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		task, err := c.GetTask(ctx, args[0])
		if err != nil {
			return o.fail(err)
		}
		// A file the agent gives by URI is fetched without the agent's
		// credentials: the URI may be anywhere.
		fetch := &http.Client{Timeout: o.timeout}
		if o.baseClient != nil {
			fetch.Transport = o.baseClient.Transport // --cacert, --insecure; never the agent's credentials
		}
		paths, err := download(ctx, task, o.dir, o.force, fetch, o.maxBytes)
		if _, ok := errors.AsType[*fileExistsError](err); ok {
			err = usageError{msg: err.Error()}
		}
		for i, p := range paths {
			paths[i] = o.unsecretName(p, i)
		}
		if o.json() {
			// One document: the files saved (after an error, the
			// envelope; the files saved before it named on stderr).
			if err != nil {
				for _, p := range paths {
					o.errf("a2a: saved %s\n", p)
				}
				return o.fail(err)
			}
			b, _ := json.Marshal(map[string]any{"saved": append([]string{}, paths...)})
			o.outJSON(b)
			return exitOK
		}
		for _, p := range paths {
			o.field("Saved", p)
		}
		if err != nil {
			return o.fail(err)
		}
		o.field("Task", task.ID)
		o.field("Context", task.ContextID)
		o.field("Status", statusText(task.Status))
		return exitOK
	})
}

// unsecretName is path, a file download wrote, renamed when its name
// (the agent's) holds one of the user's secrets: the name printed must be
// the file's, and printing it would show the secret. The file keeps the
// agent's bytes.
func (o *options) unsecretName(path string, i int) string {
	base := filepath.Base(path)
	if o.redactor().Str(base) == base {
		return path
	}
	renamed := filepath.Join(filepath.Dir(path), fmt.Sprintf("file-%d-renamed%s", i+1, filepath.Ext(o.redactor().Str(base))))
	if _, err := os.Lstat(renamed); err == nil || os.Rename(path, renamed) != nil {
		return filepath.Join(filepath.Dir(path), "(a name holding a secret)")
	}
	return renamed
}

func runPushCreate(ctx context.Context, o *options, args []string) int {
	if err := o.checkURL("the webhook", args[1]); err != nil {
		return o.fail(err)
	}
	cfg := a2a.TaskPushNotificationConfig{TaskID: args[0], PushNotificationConfig: a2a.PushNotificationConfig{ID: o.id, URL: args[1], Token: o.token}}
	if o.scheme != "" || o.credentials != "" {
		cfg.PushNotificationConfig.Authentication = &a2a.PushNotificationAuthenticationInfo{Credentials: o.credentials}
		if o.scheme != "" {
			cfg.PushNotificationConfig.Authentication.Schemes = []string{o.scheme}
		}
	}
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		got, err := c.CreateTaskPushNotificationConfig(ctx, cfg)
		if err != nil {
			return o.fail(err)
		}
		return o.printConfigs([]a2a.TaskPushNotificationConfig{*got}, false)
	})
}

func runPushGet(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		got, err := c.GetTaskPushNotificationConfig(ctx, args[0], args[1])
		if err != nil {
			return o.fail(err)
		}
		return o.printConfigs([]a2a.TaskPushNotificationConfig{*got}, false)
	})
}

func runPushList(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		got, err := c.ListTaskPushNotificationConfigs(ctx, args[0])
		if err != nil {
			return o.fail(err)
		}
		return o.printConfigs(got, true)
	})
}

func runPushDelete(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		if err := c.DeleteTaskPushNotificationConfig(ctx, args[0], args[1]); err != nil {
			return o.fail(err)
		}
		if o.json() {
			o.outJSON([]byte("{}"))
			return exitOK
		}
		o.field("Deleted", args[1])
		o.field("Task", args[0])
		return exitOK
	})
}

// printConfigs prints push notification configs, their token and
// credentials never (secrets: "(set)"); -o json: each as the package
// encodes it (one document: an array for list).
func (o *options) printConfigs(configs []a2a.TaskPushNotificationConfig, list bool) int {
	for i := range configs {
		p := &configs[i].PushNotificationConfig
		// The agent's copy of the secrets is hidden wherever it repeats it.
		o.redactor().Learn(p.Token)
		if a := p.Authentication; a != nil {
			o.redactor().Learn(a.Credentials)
		}
		if p.Token != "" {
			p.Token = "(set)"
		}
		if a := p.Authentication; a != nil && a.Credentials != "" {
			cp := *a
			cp.Credentials = "(set)"
			p.Authentication = &cp
		}
		p.URL = o.shownURL(p.URL)
	}
	if o.json() {
		var b []byte
		if list {
			b, _ = json.Marshal(map[string]any{"configs": configs})
		} else {
			b, _ = json.Marshal(configs[0])
		}
		o.outJSON(b)
		return exitOK
	}
	for _, cfg := range configs {
		p := cfg.PushNotificationConfig
		o.field("Config", cmpOr(p.ID, "(no id)"))
		o.field("Task", cfg.TaskID)
		o.field("URL", p.URL)
		if p.Token != "" {
			o.field("Token", p.Token)
		}
		if a := p.Authentication; a != nil {
			o.field("Authentication", strings.Join(append(a.Schemes, "credentials "+cmpOr(a.Credentials, "none")), ", "))
		}
		if list {
			o.outf("\n")
		}
	}
	if list {
		o.field("Configs", len(configs))
	}
	return exitOK
}

func runAuthLogin(ctx context.Context, o *options, _ []string) int {
	// A person types a code: ten minutes unless --timeout says otherwise.
	limit := 10 * time.Minute
	if o.source["timeout"] != "" {
		limit = o.timeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	card, _, err := o.readCard(ctx)
	if err != nil {
		return o.fail(err)
	}
	if card.Origin() == "" {
		return o.fail(usagef("auth login keeps a token for the site a card was read from: give -a/--agent-card its host or URL, not a file"))
	}
	hc := http.DefaultClient
	if o.baseClient != nil {
		hc = o.baseClient
	}
	tok, err := authLogin(ctx, card, loginParams{Flow: o.flow, ClientID: o.clientID, ClientSecret: o.clientSecret, Scopes: o.scopes}, o.env.stderr, hc)
	if err != nil {
		if ctx.Err() != nil {
			err = errors.Join(ctx.Err(), err) // Ctrl-C (130) or --timeout (5), whatever the flow said
		}
		return o.fail(err)
	}
	tok.Origin = card.Origin()
	if err := saveToken(configDir(o.env), tok); err != nil {
		return o.fail(err)
	}
	if o.json() {
		doc := map[string]any{"loggedIn": o.shownURL(card.Origin()), "expires": nil}
		if !tok.Expiry.IsZero() {
			doc["expires"] = tok.Expiry.UTC().Format(time.RFC3339)
		}
		b, _ := json.Marshal(doc)
		o.outJSON(b)
		return exitOK
	}
	o.field("Logged in", o.shownURL(card.Origin()))
	if !tok.Expiry.IsZero() {
		o.field("Expires", tok.Expiry.UTC().Format(time.RFC3339))
	}
	return exitOK
}

func runAuthLogout(ctx context.Context, o *options, _ []string) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	card, _, err := o.readCard(ctx)
	if err != nil {
		return o.fail(err)
	}
	err = deleteToken(configDir(o.env), card.Origin())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return o.fail(err)
	}
	switch {
	case o.json(): // {"loggedOut": ORIGIN, "hadToken": false when none was kept}
		b, _ := json.Marshal(map[string]any{"loggedOut": o.shownURL(card.Origin()), "hadToken": err == nil})
		o.outJSON(b)
	case err != nil:
		o.field("Not logged in", o.shownURL(card.Origin()))
	default:
		o.field("Logged out", o.shownURL(card.Origin()))
	}
	return exitOK
}

func runConfigShow(_ context.Context, o *options, _ []string) int {
	// Every command's settings: this command's flags hold their own
	// values; the others are read from what load found.
	var rows []configRow
	seen := map[string]bool{}
	add := func(fs *flag.FlagSet, short map[string]string, own bool) {
		fs.VisitAll(func(f *flag.Flag) {
			if _, alias := short[f.Name]; alias || notFromEnv[f.Name] || seen[f.Name] {
				return
			}
			seen[f.Name] = true
			row := configRow{Name: envName(f.Name), Flag: "--" + f.Name, Value: f.Value.String(), Source: cmpOr(o.source[f.Name], "default"), Secret: secretFlag(f.Name)}
			if !own {
				row.Value, row.Source = f.DefValue, "default"
				if st, ok := o.settings.get(row.Name); ok {
					row.Value, row.Source = st.Value, st.Source
				}
			}
			rows = append(rows, row)
		})
	}
	add(o.fs, o.short, true)
	for i := range commands {
		co := commandOptions(&commands[i], env{getenv: func(string) string { return "" }})
		add(co.fs, co.short, false)
	}
	if err := renderConfig(o.env.stdout, rows, o.json()); err != nil {
		return o.fail(err)
	}
	return exitOK
}

func runConformance(ctx context.Context, o *options, _ []string) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	card, _, err := o.readCard(ctx)
	if err != nil {
		return o.fail(err)
	}
	results := conformance(ctx, card, func(in a2a.AgentInterface) (*a2a.Client, error) { return o.cardClient(card, in) })
	if err := ctx.Err(); err != nil {
		return o.fail(err) // stopped or out of --timeout: the checks after it did not run
	}
	failed := 0
	for _, r := range results {
		if !r.Pass {
			failed++
		}
	}
	if o.json() {
		b, _ := json.Marshal(map[string]any{"checks": results, "failed": failed})
		o.outJSON(b)
	} else {
		for _, r := range results {
			verdict := "pass"
			switch {
			case r.Skipped:
				verdict = "skip"
			case !r.Pass:
				verdict = "FAIL"
			}
			o.field("Check", r.ID+" "+verdict)
			if r.Detail != "" {
				o.field("Detail", inFlags(r.Detail))
			}
		}
		o.field("Failed", failed)
	}
	if failed > 0 {
		return exitError
	}
	return exitOK
}

func runCompletion(_ context.Context, o *options, args []string) int {
	script, err := completionScript(args[0], commandInfos())
	if err != nil {
		return o.fail(err)
	}
	o.env.stdout.Write([]byte(script))
	return exitOK
}

// commandInfos describes the command tree for completion: every command
// with its flags.
func commandInfos() []cmdInfo {
	var out []cmdInfo
	for i := range commands {
		c := &commands[i]
		co := commandOptions(c, env{getenv: func(string) string { return "" }})
		info := cmdInfo{Path: c.path, Args: c.args, Summary: c.summary}
		shortOf := map[string]string{}
		for s, l := range co.short {
			if len(s) == 1 {
				shortOf[l] = s
			}
		}
		co.fs.VisitAll(func(f *flag.Flag) {
			if len(f.Name) == 1 {
				return
			}
			_, isBool := f.Value.(interface{ IsBoolFlag() bool })
			info.Flags = append(info.Flags, flagInfo{Name: f.Name, Short: shortOf[f.Name], Usage: f.Usage, TakesValue: !isBool, Choices: flagChoices[f.Name]})
		})
		out = append(out, info)
	}
	return out
}

// flagChoices are the fixed values of the flags that have them.
var flagChoices = map[string][]string{
	"output": {"text", "json"}, "transport": {a2a.TransportJSONRPC, a2a.TransportHTTPJSON},
	"a2a-version": {a2a.ProtocolV10, a2a.ProtocolV03}, "flow": {"device", "client-credentials"},
	"status": {"submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected"},
}

func runVersion(_ context.Context, o *options, _ []string) int {
	info, _ := debug.ReadBuildInfo()
	if o.json() {
		o.outJSON(versionJSON(info))
		return exitOK
	}
	o.outInert(versionText(info))
	return exitOK
}

// runDemoServer serves a2atest's Caoliao-style agent, with a card, until
// ctx ends (Ctrl-C): the specification's demo-server. It listens on
// --addr (loopback unless --allow-non-loopback), moves tasks in progress
// one state every --step (pushing each state to the task's webhooks),
// prints its URLs and what to try on stderr and, once it serves, one
// line on stdout a script can read (demoReadyLine). It speaks the version
// --a2a-version names (1.0 by default) and serves the bindings
// --transport names, in that order on its card (JSON-RPC alone by
// default).
func runDemoServer(ctx context.Context, o *options, _ []string) int {
	version := o.demoVersion
	if version != a2a.ProtocolV10 && version != a2a.ProtocolV03 {
		return o.fail(usagef("--a2a-version %s: want 1.0 or 0.3", quote(version)))
	}
	if o.demoStep < 0 {
		return o.fail(usagef("--step %s: want 0 or more", o.demoStep))
	}
	if o.transport.bad != "" {
		return o.fail(usagef("--transport: %s", o.transport.bad))
	}
	l, err := o.fakeListener()
	if err != nil {
		return o.fail(err)
	}
	bindings := o.transport.names
	if len(bindings) == 0 {
		bindings = []string{a2a.TransportJSONRPC}
	}
	step := o.demoStep
	onSend := func(m a2a.Message) a2atest.Reply {
		r := a2atest.Caoliao(m)
		r.Interval = step
		return r
	}
	opts := []a2atest.Option{a2atest.Listener(l), a2atest.OnSend(onSend), a2atest.Bindings(bindings...), a2atest.WithCard(fakeCard())}
	if version == "1.0" {
		opts = append(opts, a2atest.V10())
	}
	agent := a2atest.NewServer(opts...)
	defer agent.Close()
	site := siteOf(agent.URL)
	o.errf("An offline A2A v%s agent is listening (Ctrl-C stops it)\n", version)
	for _, b := range bindings {
		binding := ""
		if len(bindings) > 1 || b != a2a.TransportJSONRPC {
			binding = " (" + b + ")"
		}
		o.errf("  endpoint: %s%s\n", agent.Endpoint(b), binding)
	}
	card := site + a2a.AgentCardPath
	o.errf("  card:     %s\n\ntry (after: export A2ACLI_AGENT_CARD=%s):\n", card, card)
	opt := ""
	if version == a2a.ProtocolV03 {
		opt = " --a2a-version 0.3"
	}
	for _, c := range []string{"card get", "send" + opt + " " + quote("这个二维码是什么？"+a2atest.SeedQRCode), "send" + opt + " 本月巡检记录",
		"send" + opt + " --stream 本月巡检记录", "send" + opt + " 查一台设备"} {
		o.errf("  a2a %s\n", c)
	}
	line := demoReadyLine(agent.URL, card)
	if version == a2a.ProtocolV03 {
		line += " A2ACLI_A2A_VERSION=0.3" // the opt-in every command needs for it
	}
	o.outf("%s\n", line)
	<-ctx.Done()
	// Give a last answer in flight a moment to go out.
	time.Sleep(10 * time.Millisecond)
	return exitOK
}

// demoReadyLine is the one line demo-server prints on stdout once it
// serves: shell assignments of its card's URL, as the variable every
// command reads the agent from, and of its first endpoint, so that a
// script can read it and "export $line".
func demoReadyLine(endpoint, card string) string {
	return "A2ACLI_AGENT_CARD=" + card + " A2A_DEMO_SERVER_URL=" + endpoint
}

// fakeListener listens on --addr, which must be a loopback address (an IP
// of 127.0.0.0/8 or ::1, or "localhost") unless --allow-non-loopback says
// otherwise: the fake answers anyone who reaches it, with no
// authentication.
func (o *options) fakeListener() (net.Listener, error) {
	host, _, err := net.SplitHostPort(o.demoAddr)
	if err != nil {
		return nil, usagef("--addr %q: want host:port, e.g. 127.0.0.1:8080", o.demoAddr)
	}
	ip := net.ParseIP(host)
	if !o.demoAnyAddr && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, usagef("--addr %s is not a loopback address: the fake agent has no authentication and answers anyone who reaches it; add --allow-non-loopback to serve there anyway", o.demoAddr)
	}
	network := "tcp"
	if host == "localhost" {
		network = "tcp4" // one address, the one its URLs name
	}
	l, err := net.Listen(network, o.demoAddr)
	if err != nil {
		return nil, fmt.Errorf("--addr %s: %w", o.demoAddr, err)
	}
	return l, nil
}

// fakeCard is fake-agent's card on both versions: the Caoliao agent's
// name, modes and skills.
func fakeCard() *a2a.AgentCard {
	return &a2a.AgentCard{
		Name: "草料二维码 (offline fake)", Description: "Answers like the Caoliao agent: what a QR code is, inspection records, device questions.",
		Version: "1.0.0", Capabilities: a2a.AgentCapabilities{Streaming: true, PushNotifications: true}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{{ID: "entity", Name: "What a code is", Description: "Reads a QR code and returns what it stands for.", Tags: []string{"qrcode"},
			Examples: []string{"这个二维码是什么？" + a2atest.SeedQRCode}}, {ID: "records", Name: "Inspection records", Description: "Lists this month's inspection records.", Tags: []string{"inspection"}, Examples: []string{"本月巡检记录"}}},
	}
}
