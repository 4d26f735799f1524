package a2a_test

import (
	"context"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestNewClientValidation: options reject bad input with an error, never a
// panic, and NewClient does no I/O.
func TestNewClientValidation(t *testing.T) {
	bad := map[string]struct {
		endpoint string
		opts     []a2a.Option
	}{
		"relative url":       {"/a2a", nil},
		"ftp url":            {"ftp://x/y", nil},
		"no host":            {"http://", nil},
		"empty api key":      {mockURL, []a2a.Option{a2a.WithAPIKey("")}},
		"api key newline":    {mockURL, []a2a.Option{a2a.WithAPIKey("a\nb")}},
		"empty workspace":    {mockURL, []a2a.Option{a2a.WithWorkspace("")}},
		"empty bearer":       {mockURL, []a2a.Option{a2a.WithBearerToken("")}},
		"bad header name":    {mockURL, []a2a.Option{a2a.WithHeader("Bad Name", "v")}},
		"reserved header":    {mockURL, []a2a.Option{a2a.WithHeader("content-type", "text/plain")}},
		"header value CR":    {mockURL, []a2a.Option{a2a.WithHeader("X-A", "a\rb")}},
		"both selectors":     {mockURL, []a2a.Option{a2a.WithAgentID("a"), a2a.WithAgentCode("b")}},
		"empty agent id":     {mockURL, []a2a.Option{a2a.WithAgentID("")}},
		"empty agent code":   {mockURL, []a2a.Option{a2a.WithAgentCode("")}},
		"nil http client":    {mockURL, []a2a.Option{a2a.WithHTTPClient(nil)}},
		"negative retries":   {mockURL, []a2a.Option{a2a.WithMaxRetries(-1)}},
		"retry wait order":   {mockURL, []a2a.Option{a2a.WithRetryWait(2e9, 1e9)}},
		"zero retry wait":    {mockURL, []a2a.Option{a2a.WithRetryWait(0, 1e9)}},
		"zero max bytes":     {mockURL, []a2a.Option{a2a.WithMaxResponseBytes(0)}},
		"empty ua":           {mockURL, []a2a.Option{a2a.WithUserAgent("")}},
		"nil logger":         {mockURL, []a2a.Option{a2a.WithLogger(nil)}},
		"nil option":         {mockURL, []a2a.Option{nil}},
		"api key \\x01":      {mockURL, []a2a.Option{a2a.WithAPIKey("sk-\x01")}},
		"workspace DEL":      {mockURL, []a2a.Option{a2a.WithWorkspace("ws\x7f")}},
		"ua \\x1b":           {mockURL, []a2a.Option{a2a.WithUserAgent("demo\x1b[31m")}},
		"header value \\x00": {mockURL, []a2a.Option{a2a.WithHeader("X-A", "a\x00")}},
		"attempt -1":         {mockURL, []a2a.Option{a2a.WithAttemptTimeout(-1)}},
		"stream idle -1":     {mockURL, []a2a.Option{a2a.WithStreamIdleTimeout(-1)}},
		"trusted empty":      {mockURL, []a2a.Option{a2a.WithTrustedHosts("")}},
		"trusted url":        {mockURL, []a2a.Option{a2a.WithTrustedHosts("https://a.example")}},
		"trusted path":       {mockURL, []a2a.Option{a2a.WithTrustedHosts("a.example/x")}},
		"trusted userinfo":   {mockURL, []a2a.Option{a2a.WithTrustedHosts("u@a.example")}},
		"trusted port 0":     {mockURL, []a2a.Option{a2a.WithTrustedHosts("a.example:0")}},
		"trusted port word":  {mockURL, []a2a.Option{a2a.WithTrustedHosts("a.example:http")}},
		"trusted port empty": {mockURL, []a2a.Option{a2a.WithTrustedHosts("a.example:")}},
		"trusted open [":     {mockURL, []a2a.Option{a2a.WithTrustedHosts("[::1")}},
		"trusted colons":     {mockURL, []a2a.Option{a2a.WithTrustedHosts("a:b:c")}},
		"trusted space":      {mockURL, []a2a.Option{a2a.WithTrustedHosts("a .example")}},
		"trusted wildcard":   {mockURL, []a2a.Option{a2a.WithTrustedHosts("*.example.com")}},
		"agent id newline":   {mockURL, []a2a.Option{a2a.WithAgentID("a\nb")}},
		"agent code ESC":     {mockURL, []a2a.Option{a2a.WithAgentCode("a\x1b[2Jb")}},
		"api key C1":         {mockURL, []a2a.Option{a2a.WithAPIKey("sk-\u009b31m")}},
		"workspace bidi":     {mockURL, []a2a.Option{a2a.WithWorkspace("ws\u202e")}},
	}
	for name, tt := range bad {
		c, err := a2a.NewClient(tt.endpoint, tt.opts...)
		if err == nil || c != nil {
			t.Errorf("%s: NewClient = %v, %v; want nil and an error", name, c, err)
		}
	}
	c, _ := newMock(t, []mockReply{rpcReply(fixture(t, "get_task.json"))})
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"empty get id":      func() error { _, err := c.GetTask(ctx, ""); return err },
		"empty cancel id":   func() error { _, err := c.CancelTask(ctx, ""); return err },
		"negative history":  func() error { _, err := c.GetTask(ctx, "t", a2a.HistoryLength(-1)); return err },
		"nil call option":   func() error { _, err := c.SendText(ctx, "x", nil); return err },
		"empty wait id":     func() error { _, err := c.WaitTask(ctx, ""); return err },
		"bad poll interval": func() error { _, err := c.WaitTask(ctx, "t", a2a.PollInterval(0)); return err },
		"bad multiplier":    func() error { _, err := c.WaitTask(ctx, "t", a2a.PollMultiplier(0.5)); return err },
		"bad jitter":        func() error { _, err := c.WaitTask(ctx, "t", a2a.PollJitter(1)); return err },
		"bad attempts":      func() error { _, err := c.WaitTask(ctx, "t", a2a.PollMaxAttempts(0)); return err },
		"bad timeout":       func() error { _, err := c.WaitTask(ctx, "t", a2a.PollTimeout(-1)); return err },
		"bad max interval":  func() error { _, err := c.WaitTask(ctx, "t", a2a.PollMaxInterval(0)); return err },
		"nil progress":      func() error { _, err := c.WaitTask(ctx, "t", a2a.PollProgress(nil)); return err },
		"bad poll call opt": func() error { _, err := c.WaitTask(ctx, "t", a2a.HistoryLength(-2)); return err },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
