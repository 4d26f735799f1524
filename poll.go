package a2a

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// Poll defaults: polling starting at half a second, growing by half each
// attempt to at most 5 seconds between attempts, at most 60 attempts, and
// 2 minutes in all when the context has no deadline of its own.
const (
	DefaultPollInterval    = 500 * time.Millisecond
	DefaultPollMultiplier  = 1.5
	DefaultPollMaxInterval = 5 * time.Second
	DefaultPollJitter      = 0.2
	DefaultPollMaxAttempts = 60
	// DefaultPollTimeout bounds a wait whose ctx has no deadline and that
	// got no [PollTimeout]; a ctx deadline alone bounds the others.
	DefaultPollTimeout = 2 * time.Minute
)

// PollOption adjusts one [Client.WaitTask]. An option given bad input makes
// WaitTask return an error before any request is sent.
type PollOption func(*pollConfig) error

type pollConfig struct {
	interval, maxInterval time.Duration
	multiplier, jitter    float64
	maxAttempts           int
	timeout               time.Duration
	progress              func(PollAttempt)
	call                  []CallOption
	// seen, when set, gets every task read (a PushWait's fallback poll
	// keeps the last one; unexported: set by pollSeen).
	seen func(*Task)
}

// pollSeen makes a poll hand every task it reads to f.
func pollSeen(f func(*Task)) PollOption {
	return func(c *pollConfig) error { c.seen = f; return nil }
}

// PollInterval sets the wait before the second attempt (default
// [DefaultPollInterval]). d must be positive.
func PollInterval(d time.Duration) PollOption {
	return func(c *pollConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: poll interval %s must be positive", d)
		}
		c.interval = d
		return nil
	}
}

// PollMultiplier sets the factor each wait grows by (default
// [DefaultPollMultiplier]); 1 keeps the interval fixed. f must be in [1, 10].
func PollMultiplier(f float64) PollOption {
	return func(c *pollConfig) error {
		if !(f >= 1 && f <= 10) {
			return fmt.Errorf("a2a: poll multiplier %g out of range [1, 10]", f)
		}
		c.multiplier = f
		return nil
	}
}

// PollMaxInterval caps the wait between two attempts, jitter included
// (default [DefaultPollMaxInterval]). d must be positive.
func PollMaxInterval(d time.Duration) PollOption {
	return func(c *pollConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: poll max interval %s must be positive", d)
		}
		c.maxInterval = d
		return nil
	}
}

// PollJitter spreads each wait uniformly by ±f of its length (default
// [DefaultPollJitter], 20 %), so many pollers do not beat in step. f must be
// in [0, 1); 0 disables jitter.
func PollJitter(f float64) PollOption {
	return func(c *pollConfig) error {
		if !(f >= 0 && f < 1) {
			return fmt.Errorf("a2a: poll jitter %g out of range [0, 1)", f)
		}
		c.jitter = f
		return nil
	}
}

// PollMaxAttempts bounds the number of tasks/get calls (default
// [DefaultPollMaxAttempts]). n must be at least 1.
func PollMaxAttempts(n int) PollOption {
	return func(c *pollConfig) error {
		if n < 1 {
			return fmt.Errorf("a2a: poll max attempts %d must be at least 1", n)
		}
		c.maxAttempts = n
		return nil
	}
}

// PollTimeout bounds the whole wait, on top of any deadline ctx has. Without
// it the rule is simple: ctx's deadline alone bounds a wait (a 10-minute ctx
// waits 10 minutes), and a ctx without one gets [DefaultPollTimeout]. d
// must be positive. [PollError.Limit] says which bound ran out.
func PollTimeout(d time.Duration) PollOption {
	return func(c *pollConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: poll timeout %s must be positive", d)
		}
		c.timeout = d
		return nil
	}
}

// PollProgress calls fn after every tasks/get that returned a task (not after
// a transient fault), in the
// polling goroutine, before WaitTask decides whether to go on. Use it for a
// progress line or a log record; fn must not block for long.
func PollProgress(fn func(PollAttempt)) PollOption {
	return func(c *pollConfig) error {
		if fn == nil {
			return errors.New("a2a: nil poll progress func")
		}
		c.progress = fn
		return nil
	}
}

// PollCallOptions passes options to every tasks/get the poll makes, such as
// [HistoryLength].
func PollCallOptions(opts ...CallOption) PollOption {
	return func(c *pollConfig) error {
		c.call = append(c.call, opts...)
		return nil
	}
}

// PollAttempt describes one tasks/get made by [Client.WaitTask], for
// [PollProgress].
type PollAttempt struct {
	// Attempt counts from 1.
	Attempt int
	// Task is the task as just read.
	Task *Task
	// Elapsed is the time since WaitTask started.
	Elapsed time.Duration
	// Next is the wait before the next attempt, or 0 when this one ends the poll.
	Next time.Duration
}

// WaitTask polls a task with tasks/get until it is terminal (completed,
// failed, canceled, rejected) or interrupted (input-required, auth-required),
// and returns it with a nil error: a failed task is a value. A state that is
// unknown, absent, submitted or working keeps it polling; it is never taken
// for success. This is the gateway flow of the Caoliao gateway docs ("轮询应设置整体截止时间、
// 最大次数和退避间隔").
//
// Time: ctx bounds the wait; [PollTimeout] adds a bound of its own; with
// neither a ctx deadline nor PollTimeout, [DefaultPollTimeout] applies.
//
// The first attempt is made at once; then the wait starts at [PollInterval]
// and grows by [PollMultiplier] up to [PollMaxInterval], each spread by
// [PollJitter]. The poll stops after [PollMaxAttempts] attempts, when its
// time is up, or when ctx is done (within one wait: waits are cut short). It then returns the last task read (nil if
// none) and a *[PollError] naming the task, the last state, the attempts
// and what ran out. A client that gave up has not seen the task fail.
//
// Each tasks/get retries transient HTTP faults itself. If one still ends in
// a *[TransportError] or an *[HTTPError] with status 429, 502, 503 or 504,
// the poll goes on within its budget (the fault is kept in
// [PollError.LastErr]). When that HTTPError carries a Retry-After longer
// than the next wait, the next attempt waits for it; if it would fall after
// the poll's deadline, WaitTask stops at once instead of sleeping into it,
// with [PollLimitContext] when ctx's deadline is the nearer one (ctx itself
// is then not yet done) and [PollLimitDeadline] otherwise. Any other tasks/get error ends the poll at once and
// is returned as it is, with the last task read: a *[RPCError] matching
// [ErrTaskNotFound] when the agent lost the task, a *[ProtocolError], …
func (c *Client) WaitTask(ctx context.Context, taskID string, opts ...PollOption) (*Task, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	if taskID == "" {
		return nil, errors.New("a2a: WaitTask: empty task id")
	}
	return c.wait(ctx, taskID, nil, opts)
}

// AwaitTask polls the task the caller holds, as [Client.WaitTask] does,
// and never loses it: when no tasks/get succeeds before the poll gives up,
// it returns task itself (not nil) with the *[PollError], whose LastState
// is then task's state. So the pattern
//
//	task, err = c.AwaitTask(ctx, task)
//
// keeps a task to read whatever err is. A task already terminal or
// interrupted is returned at once, without a request. Errors: those of
// WaitTask, and an error without sending for a nil task or one without
// an id.
func (c *Client) AwaitTask(ctx context.Context, task *Task, opts ...PollOption) (*Task, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	if task == nil || task.ID == "" {
		return task, errors.New("a2a: AwaitTask needs a task with an id")
	}
	if task.Status.State.Terminal() || task.Status.State.Interrupted() {
		return task, nil
	}
	return c.wait(ctx, task.ID, task, opts)
}

// SendAndWait sends msg as [Client.SendMessage] does and, when the agent
// answers with a task that is not finished (submitted, working, a state
// this SDK does not know: a gateway answers so even to a blocking send),
// polls it as [Client.AwaitTask] does, with the same options: the send's
// call options are those given with [PollCallOptions] (they are used for
// every tasks/get too). It returns the final *[Task], a *[Message] when the
// agent answered with one, or, when the poll gives up, the last task known
// (never nil) with the *[PollError]. Errors: those of SendMessage and of
// AwaitTask; the result is nil only when the send itself failed.
func (c *Client) SendAndWait(ctx context.Context, msg Message, opts ...PollOption) (SendResult, error) {
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
	return c.AwaitTask(ctx, task, opts...)
}

// newPollConfig applies opts over the defaults and checks the call
// options among them.
func newPollConfig(opts []PollOption) (pollConfig, error) {
	cfg := pollConfig{
		interval:    DefaultPollInterval,
		multiplier:  DefaultPollMultiplier,
		maxInterval: DefaultPollMaxInterval,
		jitter:      DefaultPollJitter,
		maxAttempts: DefaultPollMaxAttempts,
	}
	for _, opt := range opts {
		if opt == nil {
			return cfg, errors.New("a2a: nil PollOption")
		}
		if err := opt(&cfg); err != nil {
			return cfg, err
		}
	}
	_, err := buildCallConfig(cfg.call)
	return cfg, err
}

// wait is the poll of WaitTask and AwaitTask; known is the task the
// caller holds (nil for WaitTask), the last task known until one is read.
func (c *Client) wait(ctx context.Context, taskID string, known *Task, opts []PollOption) (*Task, error) {
	cfg, err := newPollConfig(opts)
	if err != nil {
		return known, err
	}

	start := time.Now()
	pctx, cancel := ctx, context.CancelFunc(func() {})
	if bound := pollBound(ctx, cfg.timeout); bound > 0 {
		pctx, cancel = context.WithTimeout(ctx, bound)
	}
	defer cancel()

	last := known
	stop := func(attempts int, limit PollLimit, err, lastErr error) (*Task, error) {
		pe := &PollError{TaskID: taskID, Attempts: attempts, Elapsed: time.Since(start), Limit: limit, Err: err, LastErr: lastErr}
		if last != nil {
			// The state is server text going into an error: redacted.
			pe.LastState = TaskState(c.red.Str(string(last.Status.State)))
		}
		return last, pe
	}
	// ranOut tells the caller's ctx apart from the poll's own timeout.
	ranOut := func(attempts int, lastErr error) (*Task, error) {
		if ctx.Err() != nil {
			return stop(attempts, PollLimitContext, ctx.Err(), lastErr)
		}
		return stop(attempts, PollLimitDeadline, context.DeadlineExceeded, lastErr)
	}

	var lastErr error
	wait := min(cfg.interval, cfg.maxInterval)
	for attempt := 1; ; attempt++ {
		if pctx.Err() != nil {
			return ranOut(attempt-1, lastErr)
		}
		task, err := c.GetTask(pctx, taskID, cfg.call...)
		done := false
		switch {
		case err != nil && pctx.Err() != nil:
			return ranOut(attempt, lastErr)
		case err != nil && !transient(err):
			return last, err
		case err != nil:
			lastErr = err // a gateway blip: poll again within the budget
		default:
			last, lastErr = task, nil
			// Terminal (a failed task is a value) or interrupted (the
			// caller must answer). Submitted, working, unknown, absent or
			// a state newer than this SDK: not finished, never success.
			done = task.Status.State.Terminal() || task.Status.State.Interrupted()
		}
		next := time.Duration(0)
		if !done && attempt < cfg.maxAttempts {
			next = min(jittered(wait, cfg.jitter), cfg.maxInterval)
		}
		if cfg.seen != nil && err == nil {
			cfg.seen(task)
		}
		if cfg.progress != nil && err == nil {
			cfg.progress(PollAttempt{Attempt: attempt, Task: task, Elapsed: time.Since(start), Next: next})
		}
		if done {
			return task, nil
		}
		if attempt >= cfg.maxAttempts {
			return stop(attempt, PollLimitAttempts, nil, lastErr)
		}
		if he, ok := errors.AsType[*HTTPError](err); ok && he.RetryAfter > next {
			// The server asked for a longer pause (a Retry-After over the
			// call's retry cap): honour it, or stop now if the poll's
			// deadline comes first, rather than sleep into it.
			if dl, ok := pctx.Deadline(); ok && time.Until(dl) < he.RetryAfter {
				if cd, ok := ctx.Deadline(); ok && !cd.After(dl) {
					return stop(attempt, PollLimitContext, context.DeadlineExceeded, lastErr)
				}
				return stop(attempt, PollLimitDeadline, context.DeadlineExceeded, lastErr)
			}
			next = he.RetryAfter
		}
		if err := sleep(pctx, next); err != nil {
			return ranOut(attempt, lastErr)
		}
		wait = min(time.Duration(float64(wait)*cfg.multiplier), cfg.maxInterval)
	}
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

// sleep waits for d or until ctx is done, whichever is first, and returns
// ctx.Err() in the second case. It is the one way this package waits.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
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
