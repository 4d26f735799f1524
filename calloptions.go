package a2a

import (
	"errors"
	"fmt"
	"net/url"
)

// The options of one call (CallOption), beside the client's (options.go)
// and a wait's (WaitOption, poll.go).

// CallOption adjusts one call. Each option's doc says which methods use it;
// the others ignore it. An option given bad input makes the call return an
// error before anything is sent.
//
// Every CallOption is also a [WaitOption]: given to a wait
// ([Client.WaitTask], [Client.SendMessageAndWait], [PushReceiver.SendMessage],
// [PushReceiver.WatchTask]) it applies to each request the wait makes, beside
// the Poll options that shape the wait itself:
//
//	c.SendMessageAndWait(ctx, msg, a2a.HistoryLength(5), a2a.PollMaxAttempts(20))
type CallOption interface {
	WaitOption
	applyCall(*callConfig) error
}

// callOption is the one implementation of CallOption: a func that sets
// the call's configuration; given to a wait, it is kept for the wait's
// calls.
type callOption func(*callConfig) error

func (o callOption) applyCall(c *callConfig) error { return o(c) }

func (o callOption) applyWait(w *pollConfig) error {
	w.call = append(w.call, o)
	return nil
}

type callConfig struct {
	historyLength *int
	blocking      bool
	outputModes   []string
	retrySend     bool
	tenant        *string
	push          *PushNotificationConfig
	listLimit     int
	extensions    []string // Extensions (options_extensions.go)
}

// apply completes spec, a binding's, with what the call's options add to
// every request: the extensions it activates.
func (cfg callConfig) apply(spec callSpec) callSpec {
	spec.extensions = cfg.extensions
	return spec
}

// HistoryLength asks for at most n of the most recent history messages in
// the returned task (message/send configuration.historyLength; tasks/get
// params.historyLength; on v1.0 also each task of ListTasks). Without it
// the field is not sent and the server's default applies. n must be >= 0;
// on v1.0, 0 asks for no history; on v0.3 its meaning differs between
// servers. Spec: A2A v0.3 §7.1.1, §7.3.1; A2A v1.0 §3.2.4.
func HistoryLength(n int) CallOption {
	return callOption(func(c *callConfig) error {
		if n < 0 {
			return fmt.Errorf("a2a: history length %d is negative", n)
		}
		c.historyLength = &n
		return nil
	})
}

// Blocking sets message/send configuration.blocking (default true: the agent
// answers when the task is done or interrupted); on A2A v1.0 Blocking(false)
// sends configuration.returnImmediately true. With false the agent may
// answer at once with a submitted or working task; use [Client.WaitTask], or
// send with [Client.SendMessageAndWait].
func Blocking(b bool) CallOption {
	return callOption(func(c *callConfig) error { c.blocking = b; return nil })
}

// AcceptedOutputModes sets message/send configuration.acceptedOutputModes,
// the MIME types the caller can read (e.g. "text/plain", "application/json").
// With no modes the field is not sent.
func AcceptedOutputModes(modes ...string) CallOption {
	return callOption(func(c *callConfig) error {
		c.outputModes = append([]string(nil), modes...)
		return nil
	})
}

// RetrySend lets message/send be retried like tasks/get (on 502, 504 and
// connection errors after the request may have reached the agent). Use it
// only for agents that drop duplicate messageIds or for queries without side
// effects, such as Caoliao's read-only skills. Without it message/send is
// retried only where the agent cannot have acted (connection not made, 429,
// 503). Every retry carries the same messageId.
func RetrySend() CallOption {
	return callOption(func(c *callConfig) error { c.retrySend = true; return nil })
}

// Tenant sends tenant for this call instead of the client's
// ([WithTenant]): on JSON-RPC as the request's "tenant", on HTTP+JSON as
// the path's first segments (split at "/", each escaped as one segment);
// an empty tenant sends none. A2A v1.0 only: on a v0.3 client a non-empty
// tenant makes the call fail before sending, and so on HTTP+JSON does one
// with an empty, "." or ".." segment.
// Every method that sends a request uses it; CancelTask, SubscribeToTask,
// GetExtendedAgentCard and the push-config methods use no other call
// option.
func Tenant(tenant string) CallOption {
	return callOption(func(c *callConfig) error {
		if tenant != "" && controlByte(tenant) {
			return errors.New("a2a: tenant holds a control character")
		}
		c.tenant = &tenant
		return nil
	})
}

// Webhook registers a webhook with the message, so the agent
// POSTs the task's updates to it from the start (message/send and
// message/stream configuration.pushNotificationConfig, A2A v0.3 §7.1;
// configuration.taskPushNotificationConfig in A2A v1.0, which carries
// exactly one authentication scheme). It spares the separate
// [Client.CreateTaskPushNotificationConfig] call and the race where the task
// ends before that call arrives. cfg.URL must be an absolute http or https
// URL; its token and credentials are redacted from the call's errors like
// the client's own. A client whose agent card says pushNotifications is
// false refuses the call with an *[UnsupportedByCardError] before
// sending; an agent without push support may ignore the config or answer
// with an *[RPCError] matching [ErrPushNotificationNotSupported]. A
// [PushReceiver] makes the config and reads what arrives
// ([PushReceiver.SendMessage]). Other methods ignore it.
func Webhook(cfg PushNotificationConfig) CallOption {
	return callOption(func(c *callConfig) error {
		if err := checkWebhookURL(cfg.URL); err != nil {
			return err
		}
		c.push = &cfg
		return nil
	})
}

// checkWebhookURL refuses a webhook URL that is not absolute http(s),
// without quoting it (it may hold credentials).
func checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("a2a: a push notification URL must be an absolute http or https URL")
	}
	return nil
}

// ListLimit bounds the tasks one [Client.ListTasks] reads, over all its
// pages, repeats included: it reads whole pages until it has read at
// least n tasks, then ends with a *[ListLimitError] whose NextPageToken
// goes on from there. Without it the bound is 10,000. n must be >= 1.
// Other calls ignore it.
func ListLimit(n int) CallOption {
	return callOption(func(c *callConfig) error {
		if n < 1 {
			return fmt.Errorf("a2a: list limit %d is not positive", n)
		}
		c.listLimit = n
		return nil
	})
}

func buildCallConfig(opts []CallOption) (callConfig, error) {
	cfg := callConfig{blocking: true}
	for _, opt := range opts {
		if opt == nil {
			return cfg, errors.New("a2a: nil CallOption")
		}
		if err := opt.applyCall(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}
