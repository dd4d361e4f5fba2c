// Package combine runs many callers' small writes as fewer, larger ones
// ("group commit"): each caller queues its item and waits; whoever holds
// one of a few flush slots takes everything queued and flushes it at once.
// At low load a caller finds a free slot and flushes its own item alone, so
// nothing waits on a timer; under load the slots are busy, the queue fills
// meanwhile, and one statement carries many items. There are no background
// goroutines: the flushing happens on the callers' own goroutines, so there
// is nothing to start or stop.
package combine

import (
	"context"
	"sync"
)

// Combiner queues items of type T (a pointer the flush writes its outcome
// into) and flushes them in batches of at most max, never two items with
// the same key in one batch (a later one waits for the next batch, so a
// batch can be one statement that touches each key's row once).
type Combiner[T any, K comparable] struct {
	key   func(T) K
	flush func(context.Context, []T)
	max   int
	slots chan struct{}

	mu      sync.Mutex
	pending []*job[T]
}

type job[T any] struct {
	item T
	done chan struct{}
}

// New makes a combiner with slots concurrent flushes of at most max items.
// flush must record every item's outcome in the item before it returns.
func New[T any, K comparable](slots, max int, key func(T) K, flush func(context.Context, []T)) *Combiner[T, K] {
	return &Combiner[T, K]{key: key, flush: flush, max: max, slots: make(chan struct{}, slots)}
}

// Do queues item and returns once a flush has recorded its outcome, or with
// ctx's error when ctx ends first (an item not yet taken is dropped; one
// already in a flush may still be written, so the caller must not report
// it as done). The flush runs with ctx's values but not its cancellation:
// other callers' items ride in the same batch.
func (c *Combiner[T, K]) Do(ctx context.Context, item T) error {
	j := &job[T]{item: item, done: make(chan struct{})}
	c.mu.Lock()
	c.pending = append(c.pending, j)
	c.mu.Unlock()
	for {
		select {
		case <-j.done:
			return nil
		case <-ctx.Done():
			c.drop(j)
			return ctx.Err()
		case c.slots <- struct{}{}:
		}
		// Holding a slot: flush what is queued. When nothing is, another
		// holder took our item and is flushing it: wait for that.
		if !c.flushQueued(context.WithoutCancel(ctx)) {
			select {
			case <-j.done:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// flushQueued flushes one batch of the queue, reporting whether there was
// one, and gives the caller's slot back. Its callers are released even
// when the flush panics (their items then carry no outcome).
func (c *Combiner[T, K]) flushQueued(ctx context.Context) bool {
	defer func() { <-c.slots }()
	batch := c.take()
	if len(batch) == 0 {
		return false
	}
	items := make([]T, len(batch))
	for i, b := range batch {
		items[i] = b.item
	}
	defer func() {
		for _, b := range batch {
			close(b.done)
		}
	}()
	c.flush(ctx, items)
	return true
}

// drop removes j from the queue if no flush has taken it yet.
func (c *Combiner[T, K]) drop(j *job[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range c.pending {
		if p == j {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			return
		}
	}
}

// take removes up to max queued jobs with distinct keys, oldest first.
func (c *Combiner[T, K]) take() []*job[T] {
	c.mu.Lock()
	defer c.mu.Unlock()
	var batch []*job[T]
	seen := make(map[K]bool, min(len(c.pending), c.max))
	rest := c.pending[:0]
	for _, j := range c.pending {
		k := c.key(j.item)
		if len(batch) == c.max || seen[k] {
			rest = append(rest, j)
			continue
		}
		seen[k] = true
		batch = append(batch, j)
	}
	clear(c.pending[len(rest):])
	c.pending = rest
	return batch
}
