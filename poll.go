package a2a

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// The two budgets that end a wait besides its context, unless
// [PollMaxAttempts] and [PollTimeout] say otherwise.
const (
	// DefaultPollMaxAttempts bounds the tasks/get calls of a wait: with
	// the default intervals, about 4.5 minutes of polling, so under a ctx
	// deadline longer than that it is the budget that ends the wait (a
	// ctx without a deadline is cut at DefaultPollTimeout first).
	DefaultPollMaxAttempts = 60
	// DefaultPollTimeout bounds a wait whose ctx has no deadline and that
	// got no [PollTimeout]; a ctx deadline alone bounds the others.
	DefaultPollTimeout = 2 * time.Minute
)

// The poll's schedule by default: the first wait half a second, growing
// by half each attempt to at most 5 seconds, spread by ±20 %.
const (
	defaultPollInterval    = 500 * time.Millisecond
	defaultPollMultiplier  = 1.5
	defaultPollMaxInterval = 5 * time.Second
	defaultPollJitter      = 0.2
)

// WaitOption adjusts one wait for a task: [Client.WaitTask],
// [Client.SendMessageAndWait], [PushReceiver.SendMessage] and
// [PushReceiver.WatchTask]. The Poll options (PollInterval, PollTimeout, …)
// shape the polling; every [CallOption] is a WaitOption too and applies to
// each request the wait makes (the send, and every tasks/get). An option
// given bad input makes the wait return an error before any request is
// sent.
type WaitOption interface {
	applyWait(*pollConfig) error
}

// pollOption is a WaitOption that shapes the polling.
type pollOption func(*pollConfig) error

func (o pollOption) applyWait(c *pollConfig) error { return o(c) }

type pollConfig struct {
	interval, maxInterval time.Duration
	multiplier, jitter    float64
	maxAttempts           int
	timeout               time.Duration
	progress              func(PollAttempt)
	call                  []CallOption
	// seen, when set, gets every task read (a PushWait's fallback poll
	// keeps the last one).
	seen func(*Task)
}

// PollInterval sets the wait before the second attempt (default
// 500 ms). d must be positive.
func PollInterval(d time.Duration) WaitOption {
	return pollOption(func(c *pollConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: poll interval %s must be positive", d)
		}
		c.interval = d
		return nil
	})
}

// PollMultiplier sets the factor each wait grows by (default
// 1.5); 1 keeps the interval fixed. f must be in [1, 10].
func PollMultiplier(f float64) WaitOption {
	return pollOption(func(c *pollConfig) error {
		if !(f >= 1 && f <= 10) {
			return fmt.Errorf("a2a: poll multiplier %g out of range [1, 10]", f)
		}
		c.multiplier = f
		return nil
	})
}

// PollMaxInterval caps the wait between two attempts, jitter included
// (default 5 s). d must be positive.
func PollMaxInterval(d time.Duration) WaitOption {
	return pollOption(func(c *pollConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: poll max interval %s must be positive", d)
		}
		c.maxInterval = d
		return nil
	})
}

// PollJitter spreads each wait uniformly by ±f of its length (default
// 0.2, ±20 %), so many pollers do not beat in step. f must be
// in [0, 1); 0 disables jitter.
func PollJitter(f float64) WaitOption {
	return pollOption(func(c *pollConfig) error {
		if !(f >= 0 && f < 1) {
			return fmt.Errorf("a2a: poll jitter %g out of range [0, 1)", f)
		}
		c.jitter = f
		return nil
	})
}

// PollMaxAttempts bounds the number of tasks/get calls (default
// [DefaultPollMaxAttempts]). n must be at least 1.
func PollMaxAttempts(n int) WaitOption {
	return pollOption(func(c *pollConfig) error {
		if n < 1 {
			return fmt.Errorf("a2a: poll max attempts %d must be at least 1", n)
		}
		c.maxAttempts = n
		return nil
	})
}

// PollTimeout bounds the whole wait, on top of any deadline ctx has. Without
// it the rule is simple: ctx's deadline alone bounds a wait (a 10-minute ctx
// waits 10 minutes), and a ctx without one gets [DefaultPollTimeout]. d
// must be positive. [PollError.Limit] says which bound ran out.
func PollTimeout(d time.Duration) WaitOption {
	return pollOption(func(c *pollConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: poll timeout %s must be positive", d)
		}
		c.timeout = d
		return nil
	})
}

// PollProgress calls fn after every tasks/get that returned a task (not
// after a transient fault), before the wait decides whether to go on. fn
// runs in a goroutine of its own, never the caller's, never for two
// attempts of one wait at once; while it runs, it holds one of the
// client's poll scheduler's slots ([WithMaxPollsInFlight]). Use it for a progress
// line or a log record; fn must not block for long, nor wait for another
// wait of the same client. fn must be safe for concurrent use: the waits
// of one [Client.WaitTasks] call, and any waits given the same fn, call it
// from several goroutines at once.
//
// If fn panics, the scheduler recovers and that wait ends:
// [Client.WaitTask] and [Client.SendMessageAndWait] panic with the same
// value in the caller's goroutine; a range over [Client.WaitTasks] stops
// the call's other waits, then panics with it in the loop's goroutine; a
// [PushWait]'s fallback poll ends the wait with an error saying fn
// panicked (the value printed redacted and inert). The stack of the
// first panic is not kept. If fn calls runtime.Goexit (t.FailNow does),
// the same happens with runtime.Goexit in place of the panic (the
// fallback poll's error says so).
func PollProgress(fn func(PollAttempt)) WaitOption {
	return pollOption(func(c *pollConfig) error {
		if fn == nil {
			return errors.New("a2a: nil poll progress func")
		}
		c.progress = fn
		return nil
	})
}

// PollAttempt describes one tasks/get made by a wait ([Client.WaitTask],
// [Client.SendMessageAndWait], a [PushWait]'s fallback poll), for
// [PollProgress].
type PollAttempt struct {
	// Attempt counts from 1.
	Attempt int
	// Task is the task as just read.
	Task *Task
	// Elapsed is the time since the wait started.
	Elapsed time.Duration
	// Next is the wait before the next attempt, or 0 when this one ends the poll.
	Next time.Duration
}

// WaitTask polls a task with [Client.GetTask] (tasks/get; GetTask on v1.0;
// over HTTP+JSON GET /tasks/{id}) until it is terminal (completed,
// failed, canceled, rejected) or interrupted (input-required, auth-required),
// and returns it with a nil error: a failed task is a value. A state that is
// unknown, absent, submitted or working keeps it polling; it is never taken
// for success. This is the gateway flow of the Caoliao gateway docs
// ("轮询应设置整体截止时间、最大次数和退避间隔").
//
// WaitTask is one of the waits, named by one rule: WaitTask waits for a
// task by id; [Client.SendMessageAndWait] sends and then waits as WaitTask
// does; a [PushReceiver]'s SendMessage and WatchTask return a *[PushWait]
// at once, whose Wait blocks. opts are the Poll options and any
// [CallOption], which applies to every tasks/get (such as [HistoryLength]).
//
// Time: ctx bounds the wait; [PollTimeout] adds a bound of its own; with
// neither a ctx deadline nor PollTimeout, [DefaultPollTimeout] applies.
//
// The first attempt is made at once; then the wait starts at [PollInterval]
// and grows by [PollMultiplier] up to [PollMaxInterval], each spread by
// [PollJitter]. The poll stops after [PollMaxAttempts] attempts, when its
// time is up, or when ctx is done (within one wait: waits are cut short).
// It then returns the last task read (nil if none) and a *[PollError]
// naming the task, the last state, the attempts and what ran out. A client
// that gave up has not seen the task fail.
//
// The attempts run in the client's poll scheduler: the caller's goroutine
// waits while at most [WithMaxPollsInFlight] tasks/get (64 by default) run
// at once for all the polling waits of the client, earliest due first, so
// many goroutines calling WaitTask make no more requests at once than
// that. [Client.WaitTasks] waits for many tasks without a goroutine each.
//
// Each tasks/get retries transient HTTP faults itself. If one still ends in
// a *[TransportError] or an *[HTTPError] with status 429, 502, 503 or 504,
// the poll goes on within its budget (the fault is kept in
// [PollError.LastErr]). When that HTTPError carries a Retry-After longer
// than the next wait, the next attempt waits for it; if it would fall after
// the poll's deadline, WaitTask stops at once instead of sleeping into it,
// with [PollLimitContext] when ctx's deadline is the nearer one (ctx itself
// is then not yet done) and [PollLimitDeadline] otherwise. Any other
// tasks/get error ends the poll at once and is returned as it is, with the
// last task read: a *[RPCError] matching [ErrTaskNotFound] when the agent
// lost the task, a *[ProtocolError], … Before anything is sent: an error
// for an empty taskID or an option given bad input.
func (c *Client) WaitTask(ctx context.Context, taskID string, opts ...WaitOption) (*Task, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	if taskID == "" {
		return nil, errors.New("a2a: WaitTask: empty task id")
	}
	cfg, err := newPollConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.wait(ctx, taskID, nil, cfg)
}

// SendMessageAndWait sends msg as [Client.SendMessage] does and, when the
// agent answers with a task that is not finished (submitted, working, a
// state this SDK does not know: a gateway answers so even to a blocking
// send), polls it as [Client.WaitTask] does. opts are WaitTask's: the
// Poll options shape the polling, and every [CallOption] among them goes
// to the send and to every tasks/get:
//
//	res, err := c.SendMessageAndWait(ctx, msg, a2a.HistoryLength(5), a2a.PollTimeout(time.Minute))
//
// It returns the final *[Task], a *[Message] when the agent answered with
// one, or, when the poll gives up or fails, the last task known with the
// error: the task the send answered with until a tasks/get reads a newer
// one, so the task is never lost (a task that was already finished costs
// no tasks/get). Errors: those of SendMessage and of WaitTask; the result
// is nil only when nothing was sent (an option given bad input) or the
// send itself failed.
func (c *Client) SendMessageAndWait(ctx context.Context, msg Message, opts ...WaitOption) (SendResult, error) {
	cfg, err := newPollConfig(opts)
	if err != nil {
		return nil, err
	}
	res, err := c.SendMessage(ctx, msg, cfg.call...)
	if err != nil {
		return nil, err
	}
	task, ok := res.(*Task)
	if !ok {
		return res, nil
	}
	return c.awaitTask(ctx, task, cfg)
}

// awaitTask polls a task the caller holds as WaitTask does, returning that
// task, never nil, until a tasks/get reads a newer one; a task already
// terminal or interrupted is returned without a request.
func (c *Client) awaitTask(ctx context.Context, task *Task, cfg pollConfig) (*Task, error) {
	if task == nil || task.ID == "" {
		return task, errors.New("a2a: the task to wait for has no id")
	}
	if task.Status.State.final() {
		return task, nil
	}
	return c.wait(ctx, task.ID, task, cfg)
}

// newPollConfig applies opts over the defaults and checks the call
// options among them.
func newPollConfig(opts []WaitOption) (pollConfig, error) {
	cfg := pollConfig{
		interval:    defaultPollInterval,
		multiplier:  defaultPollMultiplier,
		maxInterval: defaultPollMaxInterval,
		jitter:      defaultPollJitter,
		maxAttempts: DefaultPollMaxAttempts,
	}
	for _, opt := range opts {
		if opt == nil {
			return cfg, errors.New("a2a: nil WaitOption")
		}
		if err := opt.applyWait(&cfg); err != nil {
			return cfg, err
		}
	}
	_, err := buildCallConfig(cfg.call)
	return cfg, err
}

// transient reports whether a tasks/get error is a passing fault of the way
// to the agent (no reply, or 429/502/503/504 after the call's own retries),
// after which a poll goes on within its budget.
func transient(err error) bool {
	if _, ok := errors.AsType[*TransportError](err); ok {
		return true
	}
	if he, ok := errors.AsType[*HTTPError](err); ok {
		switch he.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
	}
	return false
}

// jittered spreads d uniformly over [d(1-f), d(1+f)].
func jittered(d time.Duration, f float64) time.Duration {
	if f == 0 {
		return d
	}
	return time.Duration(float64(d) * (1 + f*(2*rand.Float64()-1)))
}

// pollBound is the poll's own bound on top of ctx: the PollTimeout given
// (timeout > 0), else none when ctx has a deadline, else
// DefaultPollTimeout.
func pollBound(ctx context.Context, timeout time.Duration) time.Duration {
	if timeout > 0 {
		return timeout
	}
	if _, ok := ctx.Deadline(); ok {
		return 0
	}
	return DefaultPollTimeout
}
