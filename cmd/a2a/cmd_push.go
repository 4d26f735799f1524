package main

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"

	"github.com/caoliao-a2a/a2a-go"
)

// task push-config create, get, list and delete.

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
		o.field("Config", cmp.Or(p.ID, "(no id)"))
		o.field("Task", cfg.TaskID)
		o.field("URL", p.URL)
		if p.Token != "" {
			o.field("Token", p.Token)
		}
		if a := p.Authentication; a != nil {
			o.field("Authentication", strings.Join(append(a.Schemes, "credentials "+cmp.Or(a.Credentials, "none")), ", "))
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
