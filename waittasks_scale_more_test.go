package a2a_test

import (
	"context"
	"sync"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// WaitTasks in TestScalePollMemory (waittasks_scale_test.go, which also
// builds without WaitTasks, to measure the client before it).
func init() {
	scaleModes["waittasks"] = func(ctx context.Context, c *a2a.Client, ids []string, opts []a2a.WaitOption, wg *sync.WaitGroup) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range c.WaitTasks(ctx, ids, opts...) {
			}
		}()
	}
}
