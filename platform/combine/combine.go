// Package combine runs many callers' small writes as fewer, larger ones
// ("group commit"): each caller queues its item and waits; whoever holds
// a flush slot takes everything queued and flushes it at once. At low load
// a caller finds a free slot and flushes its own item alone, so nothing
// waits on a timer; under load the slots are busy, the queue fills
// meanwhile, and one statement carries many items. Few slots make big
// batches (the cheapest per item); spare slots open when the queue grows
// long, and for an item that has waited too long, so one stalled flush (a
// row lock held by another transaction) does not hold up everyone queued
// behind it. There are no background goroutines: the flushing happens on
// the callers' own goroutines, so there is nothing to start or stop.
package combine

import (
	"context"
	"sync"
	"time"
)

// Limits shape a combiner's flushes.
type Limits struct {
	// Slots is how many flushes may run at once: few, so that the queue
	// builds up behind them into big batches.
	Slots int
	// Spare is how many more may run for an item that finds Crowd items
	// queued (the running flushes do not keep up) or has waited Patience
	// (one of them is stuck). Crowd 0 opens them by patience alone.
	Spare    int
	Crowd    int
	Patience time.Duration
	// Max is the most items in one flush.
	Max int
}

// Combiner queues items of type T (a pointer the flush writes its outcome
// into) and flushes them in batches of at most Max, never two items with
// the same key in one batch (a later one waits for the next batch, so a
// batch can be one statement that touches each key's row once).
type Combiner[T any, K comparable] struct {
	key      func(T) K
	flush    func(context.Context, []T)
	max      int
	slots    chan struct{}
	spare    chan struct{} // nil when there are no spare slots
	crowd    int
	patience time.Duration

	mu      sync.Mutex
	pending []*job[T]
}

type job[T any] struct {
	item T
	done chan struct{}
}

// New makes a combiner with the given limits. flush must record every
// item's outcome in the item before it returns.
func New[T any, K comparable](l Limits, key func(T) K, flush func(context.Context, []T)) *Combiner[T, K] {
	c := &Combiner[T, K]{key: key, flush: flush, max: l.Max, slots: make(chan struct{}, l.Slots), crowd: l.Crowd, patience: l.Patience}
	if l.Spare > 0 {
		c.spare = make(chan struct{}, l.Spare)
	}
	return c
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
	crowded := c.crowd > 0 && len(c.pending) >= c.crowd
	c.mu.Unlock()
	var (
		spare  chan struct{}    // c.spare, once the item may open one
		waited <-chan time.Time // fires when the item has waited patience
	)
	switch {
	case c.spare == nil:
	case crowded:
		spare = c.spare
	default:
		t := time.NewTimer(c.patience)
		defer t.Stop()
		waited = t.C
	}
	for {
		var slot chan struct{}
		select {
		case <-j.done:
			return nil
		case <-ctx.Done():
			c.drop(j)
			return ctx.Err()
		case c.slots <- struct{}{}:
			slot = c.slots
		case spare <- struct{}{}:
			slot = spare
		case <-waited:
			spare, waited = c.spare, nil
			continue
		}
		// Holding a slot: flush what is queued. When nothing is, another
		// holder took our item and is flushing it: wait for that.
		if !c.flushQueued(context.WithoutCancel(ctx), slot) {
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
func (c *Combiner[T, K]) flushQueued(ctx context.Context, slot chan struct{}) bool {
	defer func() { <-slot }()
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
