package a2aotel

import (
	"context"
	"net/http"

	a2a "github.com/caoliao-a2a/a2a-go"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
)

// PushObserve returns the [a2a.ReceiverOption] ([a2a.PushObserve]) that
// makes a span of each request a push receiver is sent, "PushNotification":
// of kind server, its parent the trace context the agent sent with the
// notification (traceparent, read by the propagator given, by default
// the global one); or, when the request's context already holds a span
// (the receiver wrapped by otelhttp's handler), of kind internal under
// that one. The span ends when the receiver has answered, with
// http.response.status_code; a 5xx answer is an error. The receiver's
// PushOnNotification func gets the span's context. Options:
// [WithTracerProvider], [WithPropagator].
func PushObserve(opts ...Option) a2a.ReceiverOption {
	tracer, prop := newConfig(opts)
	return a2a.PushObserve(func(r *http.Request) (context.Context, func(int)) {
		ctx, kind := r.Context(), trace.SpanKindInternal
		if !trace.SpanContextFromContext(ctx).IsValid() {
			ctx, kind = prop.Extract(ctx, propagation.HeaderCarrier(r.Header)), trace.SpanKindServer
		}
		ctx, span := tracer.Start(ctx, "PushNotification", trace.WithSpanKind(kind),
			trace.WithAttributes(semconv.HTTPRequestMethodKey.String(knownMethod(r.Method))))
		return ctx, func(status int) {
			span.SetAttributes(semconv.HTTPResponseStatusCode(status))
			if status >= 500 {
				span.SetStatus(codes.Error, http.StatusText(status))
			}
			span.End()
		}
	})
}

// knownMethod is http.request.method for a request any sender can make:
// its method when HTTP names it, else "_OTHER" (the HTTP conventions'
// spelling). The path is not recorded: a webhook's path may hold its
// secret, and a sender refused for want of a token chooses it too.
func knownMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		return m
	}
	return "_OTHER"
}
