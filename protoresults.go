package a2a

import "github.com/caoliao-a2a/a2a-go/internal/jsonread"

// protoResults reads the results whose shape comes from a proto: A2A
// v1.0's (JSON-RPC and HTTP+JSON) and A2A v0.3's HTTP+JSON (the v0.3
// proto's JSON). A SendMessageResponse and a StreamResponse wrap one
// payload ({"task": …}); GetTask's and CancelTask's Task is bare. What
// differs between the two protos is in the tables: member names, part
// and state spellings.
type protoResults struct {
	sendNames, streamNames *jsonread.NameSet // the wrappers' members
	task                   jsonread.Table[Task]
	message                jsonread.Table[Message]
	status                 jsonread.Table[TaskStatusUpdateEvent]
	artifact               jsonread.Table[TaskArtifactUpdateEvent]
}

// taskOf decodes a Task result, which must have an id and be about the
// task asked about; its Raw is the Task's bytes.
func (p protoResults) taskOf(r *reply) (*Task, error) {
	t, err := taskResult(r, p.task)
	if err != nil {
		return nil, err
	}
	if err := r.sameTask(t.ID, false); err != nil {
		return nil, err
	}
	return t, nil
}

// messageOf decodes a Message result or event (what names it in
// errors), whose task, when it names one, must be the one asked about.
func (p protoResults) messageOf(r *reply, what string) (*Message, error) {
	m, err := decodeAs(r, p.message, what)
	if err != nil {
		return nil, err
	}
	m.raw = r.own()
	if err := r.sameTask(m.TaskID, true); err != nil {
		return nil, err
	}
	return m, nil
}

// sendResult reads a SendMessageResponse: {"task": …} or
// {"message": …}.
func (p protoResults) sendResult(r *reply) (SendResult, error) {
	name, sub, err := unwrap(r, p.sendNames, `{"task": …} or {"message": …}`)
	switch {
	case err != nil:
		return nil, err
	case name == "":
		return nil, r.fault(`result has neither "task" nor "message"`, nil)
	case name == "task":
		t, err := p.taskOf(sub)
		if err != nil {
			return nil, err // not a typed nil beside it
		}
		return t, nil
	}
	m, err := p.messageOf(sub, "message result")
	if err != nil {
		return nil, err
	}
	return m, nil
}

// bareTask reads GetTask's and CancelTask's result: a bare Task; a task
// wrapped as {"task": …} is a *ProtocolError (the protos return it bare).
func (p protoResults) bareTask(r *reply) (*Task, error) {
	switch name, _, err := unwrap(r, bareTaskNames, "Task"); {
	case err != nil:
		return nil, err
	case name == "task":
		return nil, r.fault(`result is wrapped as {"task": …} where a bare Task is due`, nil)
	}
	return p.taskOf(r)
}

// event reads a StreamResponse: one of task, message, statusUpdate and
// artifactUpdate, under its JSON or proto name. A status update at a
// terminal or interrupted state is Final: A2A v1.0 has no final flag (the
// stream ends when the agent closes it; a2a-go's servers close it there,
// others keep an interrupted stream open, so the client stops reading
// there), and A2A v0.3's is the agent's to set.
func (p protoResults) event(r *reply) (Event, error) {
	name, sub, err := unwrap(r, p.streamNames, "stream event")
	switch {
	case err != nil:
		return nil, err
	case name == "":
		return nil, r.fault("event holds none of task, message, statusUpdate, artifactUpdate", nil)
	}
	switch name {
	case "task":
		t, err := p.taskOf(sub)
		if err != nil {
			return nil, err
		}
		return t, nil
	case "message", "msg":
		m, err := p.messageOf(sub, "message event")
		if err != nil {
			return nil, err
		}
		return m, nil
	case "statusUpdate", "status_update":
		e, err := decodeAs(sub, p.status, "statusUpdate event")
		if err != nil {
			return nil, err
		}
		e.raw = sub.own()
		e.Final = e.Final || e.Status.State.final()
		if err := r.sameTask(e.TaskID, false); err != nil {
			return nil, err
		}
		return e, nil
	}
	e, err := decodeAs(sub, p.artifact, "artifactUpdate event")
	if err != nil {
		return nil, err
	}
	e.raw = sub.own()
	if err := r.sameTask(e.TaskID, false); err != nil {
		return nil, err
	}
	return e, nil
}
