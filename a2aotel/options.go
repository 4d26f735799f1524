package a2aotel

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Option configures [NewObserver] and [PushObserve].
type Option interface {
	apply(*config)
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithTracerProvider makes spans with tp's tracer instead of the global
// provider's (otel.GetTracerProvider). A nil tp is ignored.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return optionFunc(func(c *config) {
		if tp != nil {
			c.provider = tp
		}
	})
}

// WithPropagator injects and extracts trace context with p instead of
// the global propagator (otel.GetTextMapPropagator; set it to
// propagation.TraceContext{} for W3C traceparent and tracestate). A nil p
// is ignored.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return optionFunc(func(c *config) {
		if p != nil {
			c.propagator = p
		}
	})
}

// ScopeName is the instrumentation scope of this module's tracer.
const ScopeName = "github.com/caoliao-a2a/a2a-go/a2aotel"

type config struct {
	provider   trace.TracerProvider
	propagator propagation.TextMapPropagator
}

func newConfig(opts []Option) (trace.Tracer, propagation.TextMapPropagator) {
	c := config{provider: otel.GetTracerProvider(), propagator: otel.GetTextMapPropagator()}
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	return c.provider.Tracer(ScopeName, trace.WithSchemaURL(schemaURL)), c.propagator
}
