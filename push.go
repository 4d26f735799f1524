package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// PushNotificationConfig is a webhook the agent POSTs task updates to (A2A
// v0.3 §6.8). Token and Authentication.Credentials are secrets the agent
// sends back to the webhook. Those given to
// [Client.SetTaskPushNotificationConfig] are redacted from the errors it
// returns; they travel in request bodies, and configs the agent returns
// (get, list) carry them as the agent stored them.
type PushNotificationConfig struct {
	// ID tells several webhooks of one task apart; the agent may assign it.
	ID  string `json:"id,omitempty"`
	URL string `json:"url"`
	// Token is echoed to the webhook so it can check the call.
	Token          string                              `json:"token,omitempty"`
	Authentication *PushNotificationAuthenticationInfo `json:"authentication,omitempty"`
}

// PushNotificationAuthenticationInfo says how the agent authenticates to the
// webhook (A2A v0.3 §6.9): schemes such as "Bearer", and optional
// credentials.
type PushNotificationAuthenticationInfo struct {
	Schemes     []string `json:"schemes"`
	Credentials string   `json:"credentials,omitempty"`
}

// TaskPushNotificationConfig binds a [PushNotificationConfig] to a task
// (A2A v0.3 §6.10).
type TaskPushNotificationConfig struct {
	TaskID                 string                 `json:"taskId"`
	PushNotificationConfig PushNotificationConfig `json:"pushNotificationConfig"`
}

type pushConfigParams struct {
	ID       string `json:"id"`
	ConfigID string `json:"pushNotificationConfigId,omitempty"`
}

// SetTaskPushNotificationConfig registers a webhook for a task with
// tasks/pushNotificationConfig/set (A2A v0.3 §7.5) and returns the config as
// the agent stored it (with its id). Errors: those of [Client.GetTask]; an
// *[RPCError] matching [ErrPushNotificationNotSupported] from an agent
// without push support; an *[UnsupportedByCardError], before anything is
// sent, when the client's card says pushNotifications is false; an error for
// an empty task id or URL.
func (c *Client) SetTaskPushNotificationConfig(ctx context.Context, cfg TaskPushNotificationConfig) (*TaskPushNotificationConfig, error) {
	if cfg.TaskID == "" || cfg.PushNotificationConfig.URL == "" {
		return nil, errors.New("a2a: SetTaskPushNotificationConfig needs a task id and a webhook URL")
	}
	out, err := callResult[TaskPushNotificationConfig](ctx, c, "tasks/pushNotificationConfig/set", cfg, false)
	if err != nil {
		var secrets []string
		if cfg.PushNotificationConfig.Token != "" {
			secrets = append(secrets, cfg.PushNotificationConfig.Token)
		}
		if a := cfg.PushNotificationConfig.Authentication; a != nil && a.Credentials != "" {
			secrets = append(secrets, a.Credentials)
		}
		return nil, scrub(err, secrets)
	}
	return out, nil
}

// GetTaskPushNotificationConfig reads a task's webhook config with
// tasks/pushNotificationConfig/get (A2A v0.3 §7.6); configID may be empty
// for the task's only config. Errors: as [Client.SetTaskPushNotificationConfig].
func (c *Client) GetTaskPushNotificationConfig(ctx context.Context, taskID, configID string) (*TaskPushNotificationConfig, error) {
	if taskID == "" {
		return nil, errors.New("a2a: GetTaskPushNotificationConfig: empty task id")
	}
	return callResult[TaskPushNotificationConfig](ctx, c, "tasks/pushNotificationConfig/get", pushConfigParams{ID: taskID, ConfigID: configID}, false)
}

// ListTaskPushNotificationConfigs returns every webhook config of a task
// with tasks/pushNotificationConfig/list (A2A v0.3 §7.7); none (an empty
// array, or null) is an empty slice. Errors: as [Client.SetTaskPushNotificationConfig].
func (c *Client) ListTaskPushNotificationConfigs(ctx context.Context, taskID string) ([]TaskPushNotificationConfig, error) {
	if taskID == "" {
		return nil, errors.New("a2a: ListTaskPushNotificationConfigs: empty task id")
	}
	list, err := callResult[[]TaskPushNotificationConfig](ctx, c, "tasks/pushNotificationConfig/list", pushConfigParams{ID: taskID}, true)
	if err != nil {
		return nil, err
	}
	if list == nil || *list == nil {
		return []TaskPushNotificationConfig{}, nil
	}
	return *list, nil
}

// DeleteTaskPushNotificationConfig removes a task's webhook config with
// tasks/pushNotificationConfig/delete (A2A v0.3 §7.8). The agent's
// "result": null is success, and so is a reply without "result" (a2a-go
// v0.3.15 sends one, against JSON-RPC 2.0 §5). Errors: as [Client.SetTaskPushNotificationConfig],
// and an error for an empty task or config id.
func (c *Client) DeleteTaskPushNotificationConfig(ctx context.Context, taskID, configID string) error {
	if taskID == "" || configID == "" {
		return errors.New("a2a: DeleteTaskPushNotificationConfig needs a task id and a config id")
	}
	const method = "tasks/pushNotificationConfig/delete"
	if err := c.requireCapability(method); err != nil {
		return err
	}
	st := &callState{method: method, class: retryIdempotent, nullResult: true}
	_, err := c.roundTrip(ctx, st, pushConfigParams{ID: taskID, ConfigID: configID})
	return err
}

// callResult makes one call whose result decodes into a T (push config,
// agent card), retried like tasks/get: each such method is idempotent. It
// refuses first what the known card rules out. A null result is (nil, nil)
// with nullOK, else a *ProtocolError, as is a result that does not decode.
func callResult[T any](ctx context.Context, c *Client, method string, params any, nullOK bool) (*T, error) {
	if err := c.requireCapability(method); err != nil {
		return nil, err
	}
	rep, err := c.call(ctx, method, params, retryIdempotent, resultNames[T]())
	if err != nil {
		return nil, err
	}
	if isNull(rep.result) {
		if nullOK {
			return nil, nil
		}
		return nil, rep.protocolError("result is null", nil)
	}
	var v T
	if err := json.Unmarshal(rep.result, &v); err != nil {
		return nil, rep.protocolError("result does not decode", err)
	}
	return &v, nil
}

// scrub replaces secrets in the server-sent text of a typed error made for
// this call (an echo of the request, say) with "[REDACTED]".
func scrub(err error, secrets []string) error {
	if len(secrets) == 0 {
		return err
	}
	var pairs []string
	for _, s := range secrets {
		pairs = append(pairs, s, "[REDACTED]")
	}
	r := strings.NewReplacer(pairs...)
	fix := func(b []byte) []byte {
		if len(b) == 0 {
			return b
		}
		return []byte(r.Replace(string(b)))
	}
	if e, ok := errors.AsType[*RPCError](err); ok {
		e.Message, e.Data = r.Replace(e.Message), fix(e.Data)
	}
	if e, ok := errors.AsType[*ProtocolError](err); ok {
		e.Reason, e.Body = r.Replace(e.Reason), fix(e.Body)
	}
	if e, ok := errors.AsType[*HTTPError](err); ok {
		e.Body = fix(e.Body)
	}
	return err
}
