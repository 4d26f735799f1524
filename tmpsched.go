package a2a

import (
	"sync"

	"github.com/caoliao-a2a/a2a-go/internal/sched"
)

// TEMPORARY until the sched branch gives Client its scheduler.
var tmpSched = sync.OnceValue(func() *sched.Scheduler { return sched.New(DefaultMaxPollsInFlightTmp) })

const DefaultMaxPollsInFlightTmp = 64

func (c *Client) scheduler() *sched.Scheduler { return tmpSched() }
