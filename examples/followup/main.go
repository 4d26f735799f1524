// Command followup answers an agent that asks a question: the task comes
// back input-required with the question in its status message, and the
// answer is sent as a follow-up message carrying the task's taskId and
// contextId (A2A v0.3 multi-turn; the Caoliao gateway docs, "提交后续输入"). It runs against
// an offline fake agent.
//
//	go run ./examples/followup
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func main() {
	if err := run(context.Background(), os.Stdout, "A08-03-06"); err != nil {
		fmt.Fprintln(os.Stderr, "followup:", err)
		os.Exit(1)
	}
}

// run asks about a device and gives answer when the agent asks which one.
func run(ctx context.Context, w io.Writer, answer string) error {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, err := a2a.NewClient(agent.URL)
	if err != nil {
		return err
	}

	task, err := c.SendText(ctx, "帮我查一台设备的状态")
	if err != nil {
		return err
	}
	for turn := 1; task.Status.State == a2a.TaskStateInputRequired; turn++ {
		if turn > 3 {
			return fmt.Errorf("agent keeps asking: %s", task.StatusText())
		}
		fmt.Fprintf(w, "agent asks: %s\nwe answer:  %s\n", task.StatusText(), answer)
		res, err := c.SendFollowUp(ctx, task, a2a.NewTextMessage(answer))
		if err != nil {
			return err
		}
		next, ok := res.(*a2a.Task)
		if !ok {
			return fmt.Errorf("agent answered with a message: %s", res.(*a2a.Message).Text())
		}
		task = next
	}
	fmt.Fprintf(w, "task %s (context %s): %s\n", task.ID, task.ContextID, task.Status.State)
	fmt.Fprintln(w, "summary:", task.Artifact("entity").Text())
	fmt.Fprintln(w, "history:", len(task.History), "messages")
	return nil
}
