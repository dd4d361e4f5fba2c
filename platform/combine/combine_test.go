package combine_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundsedu/rounds/platform/combine"
)

type item struct {
	key     int
	flushed atomic.Int32 // how many flushes carried it
	batch   int          // the size of the batch that carried it
}

func key(i *item) int { return i.key }

// recorder flushes by recording, and keeps every batch's keys.
type recorder struct {
	mu      sync.Mutex
	batches [][]int
	gate    chan struct{} // when set, each flush waits for it
	entered chan struct{} // when set, each flush says it has begun
}

func (r *recorder) flush(_ context.Context, items []*item) {
	if r.entered != nil {
		r.entered <- struct{}{}
	}
	if r.gate != nil {
		<-r.gate
	}
	keys := make([]int, len(items))
	for i, it := range items {
		it.flushed.Add(1)
		it.batch = len(items)
		keys[i] = it.key
	}
	r.mu.Lock()
	r.batches = append(r.batches, keys)
	r.mu.Unlock()
}

func TestAloneFlushesAtOnce(t *testing.T) {
	r := &recorder{}
	c := combine.New(combine.Limits{Slots: 2, Max: 10}, key, r.flush)
	it := &item{key: 1}
	if err := c.Do(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	if it.flushed.Load() != 1 || it.batch != 1 {
		t.Fatalf("flushed %d times in a batch of %d, want once alone", it.flushed.Load(), it.batch)
	}
}

// While the one slot is busy the queue fills; the next flush takes it all
// (up to max), every item exactly once, and never one key twice a batch.
func TestBusySlotsBatchEveryItemOnce(t *testing.T) {
	r := &recorder{gate: make(chan struct{})}
	c := combine.New(combine.Limits{Slots: 1, Max: 8}, key, r.flush)
	items := make([]*item, 40)
	var wg sync.WaitGroup
	for i := range items {
		items[i] = &item{key: i % 30} // ten keys come twice
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Do(context.Background(), items[i]); err != nil {
				t.Error(err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // let them queue behind the first flush
	close(r.gate)
	wg.Wait()
	for _, it := range items {
		if n := it.flushed.Load(); n != 1 {
			t.Fatalf("item of key %d flushed %d times", it.key, n)
		}
	}
	big := 0
	for _, b := range r.batches {
		if len(b) > 8 {
			t.Fatalf("batch of %d, max 8", len(b))
		}
		seen := map[int]bool{}
		for _, k := range b {
			if seen[k] {
				t.Fatalf("key %d twice in batch %v", k, b)
			}
			seen[k] = true
		}
		if len(b) > 1 {
			big++
		}
	}
	if big == 0 || len(r.batches) >= len(items) {
		t.Fatalf("no combining: %d batches for %d items", len(r.batches), len(items))
	}
}

// A caller whose context ends before its item is taken gets the context's
// error and its item is never flushed.
func TestCancelledBeforeTakenIsDropped(t *testing.T) {
	r := &recorder{gate: make(chan struct{}), entered: make(chan struct{}, 10)}
	c := combine.New(combine.Limits{Slots: 1, Max: 8}, key, r.flush)
	go func() { _ = c.Do(context.Background(), &item{key: 1}) }()
	<-r.entered // the first caller holds the only slot, waiting at the gate
	ctx, cancel := context.WithCancel(context.Background())
	late := &item{key: 2}
	done := make(chan error)
	go func() { done <- c.Do(ctx, late) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	close(r.gate)
	if err := c.Do(context.Background(), &item{key: 3}); err != nil {
		t.Fatal(err)
	}
	if late.flushed.Load() != 0 {
		t.Fatal("a cancelled item that no flush had taken was flushed")
	}
}

// A panicking flush still releases everyone it carried.
func TestPanickingFlushReleasesItsCallers(t *testing.T) {
	c := combine.New(combine.Limits{Slots: 1, Max: 8}, key, func(context.Context, []*item) { panic("boom") })
	func() {
		defer func() { _ = recover() }()
		_ = c.Do(context.Background(), &item{key: 1})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	func() {
		defer func() { _ = recover() }()
		if err := c.Do(ctx, &item{key: 2}); err != nil {
			t.Errorf("the slot was not given back: %v", err)
		}
	}()
}

// stallFirst is a flush that holds the batch carrying key 1 at r's gate
// and lets every other batch through.
func stallFirst(r *recorder) func(context.Context, []*item) {
	return func(ctx context.Context, items []*item) {
		if items[0].key == 1 {
			r.flush(ctx, items)
			return
		}
		(&recorder{}).flush(ctx, items)
	}
}

// A flush that stalls holds its slot; an item that has waited patience
// opens a spare slot and is flushed beside it.
func TestStalledFlushOpensSpareSlotAfterPatience(t *testing.T) {
	r := &recorder{gate: make(chan struct{}), entered: make(chan struct{}, 10)}
	c := combine.New(combine.Limits{Slots: 1, Spare: 1, Patience: 20 * time.Millisecond, Max: 8}, key, stallFirst(r))
	stalled := make(chan error)
	go func() { stalled <- c.Do(context.Background(), &item{key: 1}) }()
	<-r.entered
	late := &item{key: 2}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Do(ctx, late); err != nil {
		t.Fatalf("waited behind the stalled flush: %v", err)
	}
	if late.flushed.Load() != 1 || late.batch != 1 {
		t.Fatalf("flushed %d times in a batch of %d, want once alone", late.flushed.Load(), late.batch)
	}
	select {
	case err := <-stalled:
		t.Fatalf("the stalled flush returned (%v) before its gate opened", err)
	default:
	}
	close(r.gate)
	if err := <-stalled; err != nil {
		t.Fatal(err)
	}
}

// Spare slots stay shut while no queued item has waited patience: the
// queue waits for the busy slot and goes out as one batch.
func TestSpareSlotsWaitForPatience(t *testing.T) {
	r := &recorder{gate: make(chan struct{}), entered: make(chan struct{}, 10)}
	c := combine.New(combine.Limits{Slots: 1, Spare: 3, Patience: time.Hour, Max: 8}, key, r.flush)
	var wg sync.WaitGroup
	do := func(k int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Do(context.Background(), &item{key: k}); err != nil {
				t.Error(err)
			}
		}()
	}
	do(1)
	<-r.entered
	for k := 2; k <= 6; k++ {
		do(k)
	}
	time.Sleep(50 * time.Millisecond) // time enough for a second flush to begin, were one allowed
	if n := len(r.entered); n != 0 {
		t.Fatalf("%d more flushes began while the only slot was busy", n)
	}
	close(r.gate)
	wg.Wait()
	if len(r.batches) != 2 || len(r.batches[1]) != 5 {
		t.Fatalf("batches %v, want [1] then the five queued behind it", r.batches)
	}
}

// The item that finds Crowd items queued opens a spare slot at once, and
// its flush carries the whole queue.
func TestCrowdedQueueOpensSpareSlot(t *testing.T) {
	r := &recorder{gate: make(chan struct{}), entered: make(chan struct{}, 10)}
	c := combine.New(combine.Limits{Slots: 1, Spare: 1, Crowd: 3, Patience: time.Hour, Max: 8}, key, stallFirst(r))
	stalled := make(chan error)
	go func() { stalled <- c.Do(context.Background(), &item{key: 1}) }()
	<-r.entered
	queued := []*item{{key: 2}, {key: 3}}
	var wg sync.WaitGroup
	for _, it := range queued {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Do(context.Background(), it); err != nil {
				t.Error(err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // let them queue: two are not a crowd
	if queued[0].flushed.Load()+queued[1].flushed.Load() != 0 {
		t.Fatal("an item was flushed before the queue was crowded")
	}
	third := &item{key: 4}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Do(ctx, third); err != nil {
		t.Fatalf("the third queued item waited behind the stalled flush: %v", err)
	}
	wg.Wait()
	for _, it := range append(queued, third) {
		if it.flushed.Load() != 1 || it.batch != 3 {
			t.Fatalf("item %d flushed %d times in a batch of %d, want once in the queue's batch of 3", it.key, it.flushed.Load(), it.batch)
		}
	}
	close(r.gate)
	if err := <-stalled; err != nil {
		t.Fatal(err)
	}
}
