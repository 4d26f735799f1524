package a2aotel

import (
	"context"
	"errors"

	a2a "github.com/caoliao-a2a/a2a-go"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
)

// NewObserver returns an [a2a.Observer] that makes one client span per
// operation of the client it is given to with [a2a.WithObserver], under
// the span of the operation's context, and sets the trace context on
// every HTTP attempt (see the package documentation for the spans and
// their attributes). Options: [WithTracerProvider], [WithPropagator];
// without them, the global ones.
func NewObserver(opts ...Option) a2a.Observer {
	tracer, prop := newConfig(opts)
	return &observer{tracer: tracer, prop: prop}
}

type observer struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
}

// StartOperation starts op's span and returns its context and the hooks
// that fill and end it.
func (o *observer) StartOperation(ctx context.Context, op a2a.Operation) (context.Context, *a2a.OperationHooks) {
	ctx, span := o.tracer.Start(ctx, op.Name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(startAttributes(op)...))
	s := &operation{ctx: ctx, span: span, prop: o.prop, jsonrpc: op.Transport == a2a.TransportJSONRPC, task: op.TaskID, shown: op.Shown}
	return ctx, &a2a.OperationHooks{Attempt: s.attempt, AttemptDone: s.attemptDone, Event: s.event, End: s.end}
}

// operation is one operation's span, filled by its hooks, which the a2a
// package calls in order from one goroutine.
type operation struct {
	ctx     context.Context
	span    trace.Span
	prop    propagation.TextMapPropagator
	jsonrpc bool
	shown   func(string) string // the operation's Shown: what the agent chose, made safe to record
	task    string              // the task id the span names, "" until known
}

// attempt sets the trace context on the attempt's request, and its method
// and URL (and the resend count of a retry) on the span.
func (s *operation) attempt(a a2a.HTTPAttempt) {
	s.prop.Inject(s.ctx, propagation.HeaderCarrier(a.Header))
	attrs := []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(a.Method), semconv.URLFull(a.URL)}
	if a.N > 1 {
		attrs = append(attrs, semconv.HTTPRequestResendCount(a.N-1))
	}
	s.span.SetAttributes(attrs...)
}

// attemptDone sets the attempt's status on the span, and adds a "retry"
// event when the client will try again.
func (s *operation) attemptDone(a a2a.HTTPAttempt) {
	if a.StatusCode > 0 {
		s.span.SetAttributes(semconv.HTTPResponseStatusCode(a.StatusCode))
	}
	if !a.Retry {
		return
	}
	attrs := []attribute.KeyValue{attribute.Int("a2a.attempt", a.N)}
	if a.StatusCode > 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(a.StatusCode))
	}
	if a.Err != nil {
		attrs = append(attrs, semconv.ErrorTypeKey.String(errorType(a.Err)))
	}
	s.span.AddEvent("retry", trace.WithAttributes(attrs...))
}

// event adds a stream event as a span event, the task's state it
// brings to the span, and the task it names when the span names none yet.
func (s *operation) event(ev a2a.Event) {
	attrs := eventAttributes(ev, s.shown)
	s.span.AddEvent("stream.event", trace.WithAttributes(attrs...))
	for _, kv := range attrs {
		switch {
		case kv.Key == attrStatus:
			s.span.SetAttributes(kv)
		case kv.Key == attrTaskID && s.task == "":
			s.task = kv.Value.AsString()
			s.span.SetAttributes(kv)
		}
	}
}

// end records how the operation ended and ends the span.
func (s *operation) end(e a2a.OperationEnd) {
	defer s.span.End()
	if e.Result != nil {
		s.span.SetAttributes(resultAttributes(e.Result, s.shown)...)
	}
	if e.Err == nil {
		return
	}
	if errors.Is(e.Err, context.Canceled) {
		s.span.AddEvent("canceled")
		return
	}
	attrs := []attribute.KeyValue{semconv.ErrorTypeKey.String(errorType(e.Err))}
	var re *a2a.RPCError
	if s.jsonrpc && errors.As(e.Err, &re) {
		attrs = append(attrs, semconv.RPCJSONRPCErrorCode(re.Code))
	}
	s.span.SetAttributes(attrs...)
	s.span.RecordError(e.Err)
	s.span.SetStatus(codes.Error, s.shown(e.Err.Error()))
}
