package main

import "time"

// Each command's own flags.

func sendFlags(o *options) {
	o.parts.register(o.fs)
	o.fs.StringVar(&o.metadata, "metadata", "", `a JSON object for the message's metadata: '{"k":"v"}'`)
	o.fs.StringVar(&o.taskID, "task-id", "", "continue this task (answer one that waits for input)")
	o.fs.StringVar(&o.contextID, "context-id", "", "start the task in this context, with the tasks already in it")
	asyncFlags(o)
	waitFlags(o, "wait until the task ends or waits for you (the default; overrides A2ACLI_ASYNC)")
	o.fs.BoolVar(&o.stream, "stream", false, "follow the agent's events as they come (JSON Lines with -o json)")
	historyFlag(o)
	o.fs.BoolVar(&o.cancelOnInt, "cancel-on-interrupt", false, "on Ctrl-C, cancel the task before stopping")
	o.fs.StringVar(&o.pushReceiver, "push-receiver", "", "wait by push: receive the agent's notifications on this host:port (loopback unless --push-url)")
	o.fs.StringVar(&o.pushURL, "push-url", "", "the URL the agent reaches --push-receiver at (default: http://HOST:PORT/a2a/push)")
}

func asyncFlags(o *options) {
	o.fs.BoolVar(&o.async, "async", false, "do not wait: print the task's ids at once")
	o.fs.BoolVar(&o.async, "return-immediately", false, "the same as --async")
	o.fs.BoolVar(&o.async, "no-wait", false, "the same as --async")
	o.short["return-immediately"], o.short["no-wait"] = "async", "async"
}

func waitFlags(o *options, usage string) {
	o.fs.BoolVar(&o.wait, "wait", false, usage)
	o.fs.BoolVar(&o.wait, "watch", false, "the same as --wait")
	o.short["watch"] = "wait"
}

func historyFlag(o *options) {
	o.fs.IntVar(&o.history, "history", -1, "ask for at most N messages of the task's history")
}

func cardGetFlags(o *options) {
	o.fs.BoolVar(&o.validate, "validate", false, "check the card against the A2A schema of its version")
	o.fs.BoolVar(&o.extended, "extended", false, "read the authenticated extended card (with the credentials given)")
}

func taskGetFlags(o *options) {
	historyFlag(o)
	waitFlags(o, "poll the task until it ends or waits for you")
	o.fs.BoolVar(&o.cancelOnInt, "cancel-on-interrupt", false, "with --wait, on Ctrl-C, cancel the task before stopping")
}

func taskListFlags(o *options) {
	o.fs.StringVar(&o.contextID, "context-id", "", "only the tasks of this context")
	o.fs.StringVar(&o.status, "status", "", "only tasks in this state (completed, working, …)")
	o.fs.IntVar(&o.pageSize, "page-size", 0, "tasks a page (1..100; 0: the agent's default)")
	o.fs.StringVar(&o.pageToken, "page-token", "", "the page to read (the token the last page gave)")
	historyFlag(o)
}

func subscribeFlags(o *options) {
	o.fs.BoolVar(&o.stream, "stream", false, "print each event as it comes (JSON Lines with -o json)")
	o.fs.BoolVar(&o.cancelOnInt, "cancel-on-interrupt", false, "on Ctrl-C, cancel the task before stopping")
}

func downloadFlags(o *options) {
	o.fs.StringVar(&o.dir, "dir", ".", "the directory to write the files in")
	o.fs.BoolVar(&o.force, "force", false, "overwrite files that exist")
}

func pushCreateFlags(o *options) {
	o.fs.StringVar(&o.id, "config-id", "", "the config's id (default: the agent's choice)")
	o.fs.StringVar(&o.token, "token", "", "a token the agent sends back to the webhook")
	o.fs.StringVar(&o.scheme, "scheme", "", "the webhook's authentication scheme, e.g. Bearer")
	o.fs.StringVar(&o.credentials, "credentials", "", "the webhook's credentials")
}

func authLoginFlags(o *options) {
	o.fs.StringVar(&o.flow, "flow", "", "device or client-credentials (default: the first the card offers)")
	o.fs.StringVar(&o.clientID, "client-id", "", "the OAuth client id")
	o.fs.StringVar(&o.clientSecret, "client-secret", "", "the OAuth client secret (client-credentials; prefer A2ACLI_CLIENT_SECRET)")
	o.fs.Var(&o.scopes, "scope", "an OAuth scope to ask for; repeatable (default: the card's)")
}

func demoFlags(o *options) {
	o.fs.StringVar(&o.demoVersion, "a2a-version", "1.0", "the A2A version the agent speaks: 1.0 or 0.3")
	o.fs.Var(&o.transport, "transport", "the bindings it serves, in card order: JSONRPC, HTTP+JSON (default JSONRPC)")
	o.fs.StringVar(&o.demoAddr, "addr", "127.0.0.1:0", "the host:port to listen on (port 0: a free one); loopback unless --allow-non-loopback")
	o.fs.BoolVar(&o.demoAnyAddr, "allow-non-loopback", false, "let --addr be an address other machines reach (the demo agent has no authentication)")
	o.fs.DurationVar(&o.demoStep, "step", 500*time.Millisecond, "how often a task in progress moves one state on, with push delivery (0: one state per GetTask)")
}
