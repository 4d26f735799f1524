package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/caoliao-a2a/a2a-go"
)

// The commands about the tool itself: auth login and logout, config
// show, completion, version.

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
			row := configRow{Name: envName(f.Name), Flag: "--" + f.Name, Value: f.Value.String(), Source: cmp.Or(o.source[f.Name], "default"), Secret: secretFlag(f.Name)}
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
	for _, co := range defaultOptions() {
		add(co.fs, co.short, false)
	}
	if err := renderConfig(o.env.stdout, rows, o.json()); err != nil {
		return o.fail(err)
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
		co := defaultOptions()[i]
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
