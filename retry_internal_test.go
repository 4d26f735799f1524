package a2a

import (
	"context"
	"net/http"
	"testing"
)

func TestCheckRetryContextFirst(t *testing.T) {
	c, err := NewClient("http://127.0.0.1:1/")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cl, err := c.newCall(c.proto.getTask("t1", nil))
	if err != nil {
		t.Fatal(err)
	}
	retry, err := cl.checkRetry(ctx, &http.Response{StatusCode: 503, Header: http.Header{}, Body: http.NoBody}, nil)
	if retry || err != context.Canceled {
		t.Errorf("checkRetry on a cancelled ctx = %v, %v", retry, err)
	}
}
