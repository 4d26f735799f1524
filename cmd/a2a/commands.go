package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"iter"
	"net"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func runCard(ctx context.Context, o *options, args []string) int {
	if err := o.checkURL(args[0]); err != nil {
		return o.fail(err)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	card, err := o.resolveCard(ctx, args[0])
	if err != nil {
		return o.fail(err)
	}
	o.printCard(card)
	return exitOK
}

func runStream(ctx context.Context, o *options, args []string) int {
	msg, err := o.message(args[1])
	if err != nil {
		return o.fail(err)
	}
	return o.call(ctx, args[0], func(ctx context.Context, c *a2a.Client) int {
		return o.follow(ctx, c, args[0], c.SendStreamingMessage(ctx, msg))
	})
}

func runResubscribe(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, args[0], func(ctx context.Context, c *a2a.Client) int {
		var task a2a.Task
		task.ID = args[1]
		return o.followInto(ctx, c, args[0], c.SubscribeToTask(ctx, args[1]), &task)
	})
}

// follow prints a stream's events as they arrive, folds them into the
// task, and ends as the folded task's state says.
func (o *options) follow(ctx context.Context, c *a2a.Client, endpoint string, events iter.Seq2[a2a.Event, error]) int {
	return o.followInto(ctx, c, endpoint, events, &a2a.Task{})
}

func (o *options) followInto(ctx context.Context, c *a2a.Client, endpoint string, events iter.Seq2[a2a.Event, error], task *a2a.Task) int {
	var cut *a2a.StreamCutError
	for ev, err := range events {
		if errors.As(err, &cut) && cut.TaskID != "" {
			task.ID, task.ContextID = cut.TaskID, cmp.Or(task.ContextID, cut.ContextID)
			if ctx.Err() != nil || cut.Err != nil && !errors.As(cut.Err, new(*a2a.TransportError)) {
				// Stopped, or the agent's error inside the stream: said,
				// with the task and how to follow it again.
				return o.stopped(ctx, c, endpoint, task, "resubscribe", err)
			}
			break // closed or broken: the task is not finished; print it, and how to follow it again
		}
		if err != nil {
			return o.stopped(ctx, c, endpoint, task, "resubscribe", err)
		}
		o.printEvent(ev)
		if m, ok := ev.(*a2a.Message); ok && task.ID == "" {
			return o.printMessage(m)
		}
		if err := task.ApplyWithin(ev, o.maxBytes); err != nil {
			return o.stopped(ctx, c, endpoint, task, "resubscribe", err) // past --max-bytes
		}
	}
	if cut != nil {
		o.errf("a2a %s: %v\n", o.name, cut)
	}
	if o.json {
		if cut != nil {
			o.resume(endpoint, task, "resubscribe")
			return exitUnfinished
		}
		return stateExit(task.Status.State)
	}
	o.outf("--\n")
	return o.finishAs(endpoint, task, "resubscribe")
}

func runPush(ctx context.Context, o *options, args []string) int {
	op, endpoint, taskID := args[0], args[1], args[2]
	arg := ""
	if len(args) == 4 {
		arg = args[3]
	}
	switch {
	case op != "set" && op != "get" && op != "list" && op != "delete":
		return o.fail(usagef("push %q: want set, get, list or delete", op))
	case op == "set" && arg == "":
		return o.fail(usagef("push set needs the webhook URL: a2a push set URL TASKID WEBHOOK"))
	case op == "set":
		if err := o.checkURL(arg); err != nil {
			return o.fail(usagef("webhook: %v", err))
		}
	case op == "delete" && arg == "":
		return o.fail(usagef("push delete needs the config id: a2a push delete URL TASKID CONFIGID"))
	case op == "list" && arg != "":
		return o.fail(usagef("push list takes URL TASKID only"))
	}
	return o.call(ctx, endpoint, func(ctx context.Context, c *a2a.Client) int {
		var configs []a2a.TaskPushNotificationConfig
		switch op {
		case "set":
			cfg := a2a.TaskPushNotificationConfig{TaskID: taskID, PushNotificationConfig: a2a.PushNotificationConfig{ID: o.id, URL: arg, Token: o.token}}
			if o.scheme != "" || o.credentials != "" {
				cfg.PushNotificationConfig.Authentication = &a2a.PushNotificationAuthenticationInfo{Credentials: o.credentials}
				if o.scheme != "" {
					cfg.PushNotificationConfig.Authentication.Schemes = []string{o.scheme}
				}
			}
			got, err := c.CreateTaskPushNotificationConfig(ctx, cfg)
			if err != nil {
				return o.fail(err)
			}
			configs = append(configs, *got)
		case "get":
			got, err := c.GetTaskPushNotificationConfig(ctx, taskID, arg)
			if err != nil {
				return o.fail(err)
			}
			configs = append(configs, *got)
		case "list":
			got, err := c.ListTaskPushNotificationConfigs(ctx, taskID)
			if err != nil {
				return o.fail(err)
			}
			configs = got
		case "delete":
			if err := c.DeleteTaskPushNotificationConfig(ctx, taskID, arg); err != nil {
				return o.fail(err)
			}
			o.outf("deleted config %s of task %s\n", arg, taskID)
			return exitOK
		}
		if o.json {
			for _, cfg := range configs {
				// The token and credentials are secrets: never printed.
				if cfg.PushNotificationConfig.Token != "" {
					cfg.PushNotificationConfig.Token = "[REDACTED]"
				}
				if a := cfg.PushNotificationConfig.Authentication; a != nil && a.Credentials != "" {
					cp := *a
					cp.Credentials = "[REDACTED]"
					cfg.PushNotificationConfig.Authentication = &cp
				}
				cfg.PushNotificationConfig.URL = o.shownURL(cfg.PushNotificationConfig.URL)
				b, _ := json.Marshal(cfg)
				o.outJSON(b)
			}
			return exitOK
		}
		for _, cfg := range configs {
			p := cfg.PushNotificationConfig
			auth := ""
			if a := p.Authentication; a != nil {
				auth = " auth " + strings.Join(a.Schemes, ",") // credentials and token are secrets: not shown
			}
			o.outf("config %s of task %s: %s%s\n", or(p.ID, "(no id)"), cfg.TaskID, o.shownURL(p.URL), auth)
		}
		if op == "list" {
			o.outf("%d %s\n", len(configs), plural(len(configs), "config"))
		}
		return exitOK
	})
}

// runFakeAgent serves a2atest's Caoliao-style agent, with a card, until
// ctx ends (Ctrl-C). It listens on --addr (loopback unless
// --allow-non-loopback), moves tasks in progress one state every --step
// (pushing each state to the task's webhooks), prints its URLs and what
// to try on stderr and, once it serves, one line on stdout a script can
// read (fakeReadyLine). It speaks the version --version names, or
// --protocol (its flag or A2A_PROTOCOL) when --version is not given, and
// serves the transports --transport names, in that order on its card
// (JSON-RPC alone for auto).
func runFakeAgent(ctx context.Context, o *options, _ []string) int {
	version, err := o.fakeAgentVersion()
	if err != nil {
		return o.fail(err)
	}
	if o.fakeStep < 0 {
		return o.fail(usagef("--step %s: want 0 or more", o.fakeStep))
	}
	l, err := o.fakeListener()
	if err != nil {
		return o.fail(err)
	}
	bindings := o.transport.names
	if len(bindings) == 0 {
		bindings = []string{a2a.TransportJSONRPC}
	}
	step := o.fakeStep
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
	o.errf("  card:     %s\n\ntry:\n", site+a2a.AgentCardPath)
	for _, c := range []string{"card " + site, "send " + agent.URL + " " + quote("这个二维码是什么？"+a2atest.SeedQRCode), "send --wait " + agent.URL + " 本月巡检记录",
		"stream " + agent.URL + " 本月巡检记录", "send " + agent.URL + " 查一台设备"} {
		o.errf("  a2a %s\n", c)
	}
	o.outf("%s\n", fakeReadyLine(agent.URL, site+a2a.AgentCardPath))
	<-ctx.Done()
	// Give a last answer in flight a moment to go out.
	time.Sleep(10 * time.Millisecond)
	return exitOK
}

// fakeReadyLine is the one line fake-agent prints on stdout once it
// serves: shell assignments of its first endpoint and its card's URL, so
// a script can read it and "export $line".
func fakeReadyLine(endpoint, card string) string {
	return "A2A_FAKE_AGENT_URL=" + endpoint + " A2A_FAKE_AGENT_CARD_URL=" + card
}

// fakeListener listens on --addr, which must be a loopback address (an IP
// of 127.0.0.0/8 or ::1, or "localhost") unless --allow-non-loopback says
// otherwise: the fake answers anyone who reaches it, with no
// authentication.
func (o *options) fakeListener() (net.Listener, error) {
	host, _, err := net.SplitHostPort(o.fakeAddr)
	if err != nil {
		return nil, usagef("--addr %q: want host:port, e.g. 127.0.0.1:8080", o.fakeAddr)
	}
	ip := net.ParseIP(host)
	if !o.fakeAnyAddr && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, usagef("--addr %s is not a loopback address: the fake agent has no authentication and answers anyone who reaches it; add --allow-non-loopback to serve there anyway", o.fakeAddr)
	}
	network := "tcp"
	if host == "localhost" {
		network = "tcp4" // one address, the one its URLs name
	}
	l, err := net.Listen(network, o.fakeAddr)
	if err != nil {
		return nil, fmt.Errorf("--addr %s: %w", o.fakeAddr, err)
	}
	return l, nil
}

// fakeCard is fake-agent's card on both versions: the Caoliao agent's
// name, modes and skills.
func fakeCard() *a2a.AgentCard {
	return &a2a.AgentCard{
		Name: "草料二维码 (offline fake)", Description: "Answers like the Caoliao agent: what a QR code is, inspection records, device questions.",
		Version: "1.0.0", Capabilities: a2a.AgentCapabilities{Streaming: true, PushNotifications: true}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{{ID: "entity", Name: "What a code is", Description: "Reads a QR code and returns what it stands for.",
			Examples: []string{"这个二维码是什么？" + a2atest.SeedQRCode}}, {ID: "records", Name: "Inspection records", Examples: []string{"本月巡检记录"}}},
	}
}

// fakeAgentVersion is the version fake-agent speaks: --version's, or,
// when it is not given, --protocol's (0.3 for auto). A --protocol on the
// command line that --version contradicts is a usage error.
func (o *options) fakeAgentVersion() (string, error) {
	set := map[string]bool{}
	o.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case o.fakeVersion != "0.3" && o.fakeVersion != "1.0":
		return "", usagef("--version %q: want 0.3 or 1.0", o.fakeVersion)
	case o.protocol == "auto" || set["version"] && !set["protocol"]:
		return o.fakeVersion, nil
	case set["version"] && o.protocol != o.fakeVersion:
		return "", usagef("--protocol %s and --version %s disagree: give one", o.protocol, o.fakeVersion)
	}
	return o.protocol, nil
}
