package a2a

import (
	"errors"
	"fmt"
)

// Push notification configs in A2A v1.0: one flat object
// (TaskPushNotificationConfig) where v0.3 nested a PushNotificationConfig,
// its "id" the config's own (v0.3's get and delete params used "id" for the
// task), one authentication scheme, and lists paged. The binding converts
// them to and from the SDK's [TaskPushNotificationConfig].

// pushConfigV10 is TaskPushNotificationConfig, v1.0's one flat push
// config object, as sent and as read.
type pushConfigV10 struct {
	Tenant         string       `json:"tenant,omitempty"`
	ID             string       `json:"id,omitempty"`
	TaskID         string       `json:"taskId,omitempty"`
	TaskIDProto    string       `json:"task_id,omitempty"` // the proto's name, read, never sent
	URL            string       `json:"url"`
	Token          string       `json:"token,omitempty"`
	Authentication *authInfoV10 `json:"authentication,omitempty"`
}

// authInfoV10 is AuthenticationInfo: one scheme.
type authInfoV10 struct {
	Scheme      string `json:"scheme"`
	Credentials string `json:"credentials,omitempty"`
}

// public is the config as the SDK's type holds it; a scheme is Schemes[0].
func (p pushConfigV10) public() TaskPushNotificationConfig {
	cfg := TaskPushNotificationConfig{TaskID: p.TaskID, PushNotificationConfig: PushNotificationConfig{ID: p.ID, URL: p.URL, Token: p.Token}}
	if a := p.Authentication; a != nil {
		cfg.PushNotificationConfig.Authentication = &PushNotificationAuthenticationInfo{Schemes: []string{a.Scheme}, Credentials: a.Credentials}
		if a.Scheme == "" {
			cfg.PushNotificationConfig.Authentication.Schemes = []string{}
		}
	}
	return cfg
}

// errOneScheme is setPushConfig's error for a config v1.0 cannot carry.
var errOneScheme = errors.New("a2a: A2A v1.0 carries exactly one authentication scheme per push config (AuthenticationInfo.scheme is required); give one in Schemes")

func (b v10) setPushConfig(cfg TaskPushNotificationConfig) (callSpec, error) {
	out, err := pushV10(cfg, b.tenantName)
	if err != nil {
		return callSpec{}, err
	}
	spec := pushSpec(methodSetPushConfigV10, cfg, out)
	spec.tenant = b.tenantName
	return spec, nil
}

// pushV10 is cfg as v1.0 sends it, with tenant; its error is errOneScheme.
func pushV10(cfg TaskPushNotificationConfig, tenant string) (*pushConfigV10, error) {
	p := cfg.PushNotificationConfig
	out := &pushConfigV10{Tenant: tenant, ID: p.ID, TaskID: cfg.TaskID, URL: p.URL, Token: p.Token}
	if a := p.Authentication; a != nil {
		if len(a.Schemes) != 1 || a.Schemes[0] == "" {
			return nil, errOneScheme
		}
		out.Authentication = &authInfoV10{Scheme: a.Schemes[0], Credentials: a.Credentials}
	}
	return out, nil
}

// pushRequest is Get-, List- and DeleteTaskPushNotificationConfigRequest:
// ID is the config's id (v0.3's was the task's).
type pushRequest struct {
	Tenant    string `json:"tenant,omitempty"`
	TaskID    string `json:"taskId"`
	ID        string `json:"id,omitempty"`
	PageToken string `json:"pageToken,omitempty"`
}

// errConfigID is getPushConfig's error for a call without a config id,
// which v1.0's GetTaskPushNotificationConfigRequest requires.
var errConfigID = errors.New("a2a: GetTaskPushNotificationConfig: A2A v1.0 needs the config id")

func (b v10) getPushConfig(taskID, configID string) (callSpec, error) {
	if configID == "" {
		return callSpec{}, errConfigID
	}
	return callSpec{method: methodGetPushConfigV10, tenant: b.tenantName, params: pushRequest{Tenant: b.tenantName, TaskID: taskID, ID: configID},
		class: retryIdempotent, needs: capPush, taskID: taskID, configID: configID}, nil
}

func (b v10) listPushConfigs(taskID, pageToken string) callSpec {
	return callSpec{method: methodListPushConfigsV10, tenant: b.tenantName, params: pushRequest{Tenant: b.tenantName, TaskID: taskID, PageToken: pageToken},
		class: retryIdempotent, needs: capPush, taskID: taskID}
}

func (b v10) deletePushConfig(taskID, configID string) callSpec {
	return callSpec{method: methodDeletePushConfigV10, tenant: b.tenantName, params: pushRequest{Tenant: b.tenantName, TaskID: taskID, ID: configID},
		class: retryIdempotent, needs: capPush, nullResult: true}
}

func (v10) pushConfig(r *reply) (*TaskPushNotificationConfig, error) {
	p, err := jsonResult[pushConfigV10](r, "result", false)
	if err != nil {
		return nil, err
	}
	if err := p.check(r); err != nil {
		return nil, err
	}
	cfg := p.public()
	return &cfg, nil
}

// check returns a *ProtocolError for a config that is not about the task
// asked about, not the config a get asked for, or has no webhook URL (REQUIRED in v1.0: a config without
// one, such as v0.3's {"taskId": …, "pushNotificationConfig": {…}}, would
// otherwise read as a webhook of nowhere).
func (p *pushConfigV10) check(r *reply) error {
	switch {
	case p.TaskID == "":
		p.TaskID = p.TaskIDProto
	case p.TaskIDProto != "" && p.TaskIDProto != p.TaskID:
		return r.fault(`member "task_id" appears twice in one object, as "taskId" and "task_id"`, nil)
	}
	if err := r.sameTask(p.TaskID, false); err != nil {
		return err
	}
	if p.URL == "" {
		return r.fault(`push config has no "url"`, nil)
	}
	if want := r.asked.configID; want != "" && p.ID != want {
		return r.fault(fmt.Sprintf("push config %s is not %s, the config asked for", r.asked.red.Quote(p.ID), r.asked.red.Quote(want)), nil)
	}
	return nil
}

// pushConfigList is ListTaskPushNotificationConfigsResponse.
type pushConfigList struct {
	Configs       []pushConfigV10 `json:"configs"`
	NextPageToken string          `json:"nextPageToken"`
	// The proto's name, which ProtoJSON readers take too: a page token
	// missed would end the list early, silently.
	NextPageTokenProto string `json:"next_page_token,omitempty"`
}

// pushConfigs reads one page of configs and the next page's token.
func (v10) pushConfigs(r *reply) ([]TaskPushNotificationConfig, string, error) {
	page, err := jsonResult[pushConfigList](r, "result", true)
	if err != nil || page == nil {
		return []TaskPushNotificationConfig{}, "", err
	}
	out := make([]TaskPushNotificationConfig, 0, len(page.Configs))
	for _, p := range page.Configs {
		if err := p.check(r); err != nil {
			return nil, "", err
		}
		out = append(out, p.public())
	}
	next := page.NextPageToken
	switch {
	case next == "":
		next = page.NextPageTokenProto
	case page.NextPageTokenProto != "" && page.NextPageTokenProto != next:
		return nil, "", r.fault(`member "next_page_token" appears twice in one object, as "nextPageToken" and "next_page_token"`, nil)
	}
	return out, next, nil
}
