package a2a

import (
	"context"
	"testing"
	"time"
)

// TestPollBound: the time bound of a wait is ctx's deadline alone unless
// PollTimeout is given; a ctx without a deadline gets DefaultPollTimeout.
func TestPollBound(t *testing.T) {
	long, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		timeout time.Duration
		want    time.Duration
	}{
		{"ctx with a deadline, no PollTimeout: ctx alone", long, 0, 0},
		{"ctx with a deadline and PollTimeout", long, 30 * time.Second, 30 * time.Second},
		{"ctx without a deadline: the default", context.Background(), 0, DefaultPollTimeout},
		{"ctx without a deadline and PollTimeout", context.Background(), time.Hour, time.Hour},
	} {
		if got := pollBound(tc.ctx, tc.timeout); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
