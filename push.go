package a2a

import (
	"context"
	"errors"
)

// PushNotificationConfig is a webhook the agent POSTs task updates to (A2A
// v0.3 §6.8). Token and Authentication.Credentials are secrets the agent
// sends back to the webhook. Those given to
// [Client.CreateTaskPushNotificationConfig], and credentials in the URL
// (userinfo, query values), are redacted from the errors it returns; they travel in request bodies, and configs the agent returns
// (get, list) carry them as the agent stored them.
type PushNotificationConfig struct {
	// ID tells several webhooks of one task apart; the agent may assign it
	// (on A2A v0.3's HTTP+JSON binding, which requires one, the client
	// assigns a fresh UUID to a config created without).
	ID  string `json:"id,omitempty"`
	URL string `json:"url"`
	// Token is echoed to the webhook so it can check the call.
	Token          string                              `json:"token,omitempty"`
	Authentication *PushNotificationAuthenticationInfo `json:"authentication,omitempty"`
}

// PushNotificationAuthenticationInfo says how the agent authenticates to the
// webhook (A2A v0.3 §6.9): schemes such as "Bearer", and optional
// credentials. A2A v1.0's AuthenticationInfo has one scheme, read into and
// sent from Schemes[0].
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

// CreateTaskPushNotificationConfig registers a webhook for a task with
// tasks/pushNotificationConfig/set (A2A v0.3 §7.5;
// CreateTaskPushNotificationConfig in A2A v1.0, whose config carries one
// authentication scheme: Schemes must then hold exactly one; over
// HTTP+JSON POST /tasks/{id}/pushNotificationConfigs, v0.3: POST
// /v1/tasks/{id}/pushNotificationConfigs) and returns
// the config as the agent stored it (with its id). It is retried as a
// send is, only where the agent cannot have acted (connection not made,
// 429, 503): a second create could register the webhook twice. Errors:
// those of [Client.GetTask]; an
// *[RPCError] matching [ErrPushNotificationNotSupported] from an agent
// without push support; an *[UnsupportedByCardError], before anything is
// sent, when the client's card says pushNotifications is false; an error for
// an empty task id or URL, or on v1.0 for an Authentication without exactly
// one scheme.
func (c *Client) CreateTaskPushNotificationConfig(ctx context.Context, cfg TaskPushNotificationConfig, opts ...CallOption) (*TaskPushNotificationConfig, error) {
	b, call, err := c.callBinding(opts)
	if err != nil {
		return nil, err
	}
	if cfg.TaskID == "" || cfg.PushNotificationConfig.URL == "" {
		return nil, errors.New("a2a: CreateTaskPushNotificationConfig needs a task id and a webhook URL")
	}
	spec, err := b.setPushConfig(cfg)
	if err != nil {
		return nil, err
	}
	return run(ctx, c, call.apply(spec), b.pushConfig)
}

// GetTaskPushNotificationConfig reads a task's webhook config with
// tasks/pushNotificationConfig/get (A2A v0.3 §7.6;
// GetTaskPushNotificationConfig in A2A v1.0; over HTTP+JSON GET
// /tasks/{id}/pushNotificationConfigs/{configId}, v0.3: under /v1/).
// configID may be empty for the task's only config on v0.3 JSON-RPC, not
// on v1.0 nor on v0.3 HTTP+JSON, whose paths name it (an error without
// sending). Errors: as [Client.CreateTaskPushNotificationConfig].
func (c *Client) GetTaskPushNotificationConfig(ctx context.Context, taskID, configID string, opts ...CallOption) (*TaskPushNotificationConfig, error) {
	b, call, err := c.callBinding(opts)
	if err != nil {
		return nil, err
	}
	if taskID == "" {
		return nil, errors.New("a2a: GetTaskPushNotificationConfig: empty task id")
	}
	spec, err := b.getPushConfig(taskID, configID)
	if err != nil {
		return nil, err
	}
	return run(ctx, c, call.apply(spec), b.pushConfig)
}

// ListTaskPushNotificationConfigs returns every webhook config of a task
// with tasks/pushNotificationConfig/list (A2A v0.3 §7.7;
// ListTaskPushNotificationConfigs in A2A v1.0, whose pages it follows to
// the last, a repeated page token being a *[ProtocolError]; over
// HTTP+JSON GET /tasks/{id}/pushNotificationConfigs, v0.3: under /v1/,
// pages followed too); none (an empty
// array, or null) is an empty slice. Errors: as [Client.CreateTaskPushNotificationConfig].
func (c *Client) ListTaskPushNotificationConfigs(ctx context.Context, taskID string, opts ...CallOption) ([]TaskPushNotificationConfig, error) {
	b, call, err := c.callBinding(opts)
	if err != nil {
		return nil, err
	}
	if taskID == "" {
		return nil, errors.New("a2a: ListTaskPushNotificationConfigs: empty task id")
	}
	// Follow the pages (v1.0's) to the last.
	all := []TaskPushNotificationConfig{}
	var pages pager
	for token := ""; ; {
		var (
			rep  *reply
			next string
		)
		page, err := run(ctx, c, call.apply(b.listPushConfigs(taskID, token)), func(r *reply) (page []TaskPushNotificationConfig, err error) {
			rep = r
			page, next, err = b.pushConfigs(r)
			return page, err
		})
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if next == "" {
			return all, nil
		}
		if err := pages.next(rep, len(page), next, maxConfigPages); err != nil {
			return nil, err
		}
		token = next
	}
}

// DeleteTaskPushNotificationConfig removes a task's webhook config with
// tasks/pushNotificationConfig/delete (A2A v0.3 §7.8;
// DeleteTaskPushNotificationConfig in A2A v1.0; over HTTP+JSON DELETE
// /tasks/{id}/pushNotificationConfigs/{configId}, v0.3: under /v1/). The
// agent's "result": null is success, and so are {} (any object) and a
// reply without "result" (a2a-go sends one, on v0.3 and v1.0, against
// JSON-RPC 2.0 §5), and over HTTP+JSON an empty 2xx body; another
// result is a *[ProtocolError]. Errors: as
// [Client.CreateTaskPushNotificationConfig], and an error for an empty task
// or config id.
func (c *Client) DeleteTaskPushNotificationConfig(ctx context.Context, taskID, configID string, opts ...CallOption) error {
	b, call, err := c.callBinding(opts)
	if err != nil {
		return err
	}
	if taskID == "" || configID == "" {
		return errors.New("a2a: DeleteTaskPushNotificationConfig needs a task id and a config id")
	}
	_, err = run(ctx, c, call.apply(b.deletePushConfig(taskID, configID)), func(rep *reply) (any, error) {
		if !isNull(rep.result) && rep.result[0] != '{' {
			// null, {} (google.protobuf.Empty) or none: anything else is
			// not an answer to a delete.
			return nil, rep.fault("result of a delete is neither null nor an object", nil)
		}
		return nil, nil
	})
	return err
}
