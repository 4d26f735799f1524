package a2atest

import (
	"fmt"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Tasks an OnSend handler can answer with.

// CompletedTask returns a completed task with one artifact named name whose
// parts are a DataPart holding data (encoded as JSON) and a TextPart holding
// summary: the shape of every Caoliao answer. It panics if data
// cannot be encoded as JSON, which is a bug in the test.
func CompletedTask(name string, data any, summary string) *a2a.Task {
	dp, err := a2a.NewDataPart(data)
	if err != nil {
		panic(fmt.Sprintf("a2atest: CompletedTask data: %v", err))
	}
	return &a2a.Task{
		Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
		Artifacts: []a2a.Artifact{{
			ArtifactID: "artifact-" + name,
			Name:       name,
			Parts:      a2a.Parts{dp, a2a.TextPart{Text: summary}},
		}},
	}
}

// FailedTask returns a failed task whose status message holds reason, the
// way Caoliao reports a failure (a result, not an error).
func FailedTask(reason string) *a2a.Task {
	return StatusTask(a2a.TaskStateFailed, reason)
}

// StatusTask returns a task in state with an agent status message holding
// text (no message when text is empty), for input-required questions,
// cancellations and the like.
func StatusTask(state a2a.TaskState, text string) *a2a.Task {
	t := &a2a.Task{Status: a2a.TaskStatus{State: state}}
	if text != "" {
		t.Status.Message = &a2a.Message{MessageID: "status-" + string(state), Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: text}}}
	}
	return t
}

func echo(m a2a.Message) Reply {
	text := m.Parts.Text()
	return Reply{Task: CompletedTask("echo", map[string]string{"text": text}, text)}
}
