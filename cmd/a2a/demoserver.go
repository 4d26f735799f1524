package main

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// demo-server: an offline Caoliao-style agent to try the commands
// against.

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
	l, err := o.demoListener()
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
	opts := []a2atest.Option{a2atest.Listener(l), a2atest.OnSend(onSend), a2atest.Bindings(bindings...), a2atest.WithCard(demoCard())}
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

// demoListener listens on --addr, which must be a loopback address (an IP
// of 127.0.0.0/8 or ::1, or "localhost") unless --allow-non-loopback says
// otherwise: the fake answers anyone who reaches it, with no
// authentication.
func (o *options) demoListener() (net.Listener, error) {
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

// demoCard is fake-agent's card on both versions: the Caoliao agent's
// name, modes and skills.
func demoCard() *a2a.AgentCard {
	return &a2a.AgentCard{
		Name: "草料二维码 (offline fake)", Description: "Answers like the Caoliao agent: what a QR code is, inspection records, device questions.",
		Version: "1.0.0", Capabilities: a2a.AgentCapabilities{Streaming: true, PushNotifications: true}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{{ID: "entity", Name: "What a code is", Description: "Reads a QR code and returns what it stands for.", Tags: []string{"qrcode"},
			Examples: []string{"这个二维码是什么？" + a2atest.SeedQRCode}}, {ID: "records", Name: "Inspection records", Description: "Lists this month's inspection records.", Tags: []string{"inspection"}, Examples: []string{"本月巡检记录"}}},
	}
}
