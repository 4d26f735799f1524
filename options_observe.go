package a2a

import "errors"

// The options of observation (observe.go).

// WithObserver makes the client tell o of each operation it sends: its
// start, each HTTP attempt (where o may add headers such as W3C trace
// context), each stream event, and its end (see [Observer]).
// [ResolveAgentCard] tells it of each card URL it GETs. A client without
// one costs nothing more. It returns an error from NewClient when o is
// nil.
func WithObserver(o Observer) Option {
	return clientOption(func(c *clientConfig) error {
		if o == nil {
			return errors.New("a2a: the Observer is nil")
		}
		c.observer = o
		return nil
	})
}
