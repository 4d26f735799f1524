package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// droppingAgent streams a task's first events, then closes the stream
// before the task is final; the task goes on to completion, which a
// resubscription or a poll sees.
func droppingAgent() *a2atest.Server {
	return a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{
			Task:   &a2a.Task{Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}},
			States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted},
			Events: []a2a.Event{
				&a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted}},
				&a2a.TaskStatusUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}},
			},
		}
	}))
}

// A stream that ends before its task does ends with a *StreamCutError;
// the caller resumes: follows the task again once, then reads the whole
// task with WaitTask.
func ExampleStreamCutError() {
	agent := droppingAgent()
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: stream-cut
	var task a2a.Task
	fold := func(events iter.Seq2[a2a.Event, error]) error {
		for ev, err := range events {
			if err != nil {
				return err
			}
			task.Apply(ev)
		}
		return nil
	}
	err := fold(c.SendStreamingMessage(ctx, a2a.NewTextMessage("本月巡检记录")))
	if cut, ok := errors.AsType[*a2a.StreamCutError](err); ok && cut.TaskID != "" {
		fmt.Println("cut at", task.Status.State)
		// The stream ended before the task did: follow it again for
		// progress, once,
		if err := fold(c.SubscribeToTask(ctx, cut.TaskID)); err != nil {
			fmt.Println("again:", errors.Is(err, a2a.ErrStreamCut))
		}
		// then read the whole task (or wait for it): events sent while
		// no stream was open are not always sent again.
		var done *a2a.Task
		if done, err = c.WaitTask(ctx, cut.TaskID); done != nil {
			task = *done
		}
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.ID, task.Status.State)
	// snippet end

	// Output:
	// cut at working
	// task-1 completed
}
