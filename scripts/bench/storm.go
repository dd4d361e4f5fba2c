package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/roundsedu/rounds/e2e/loadkit"
)

// Issue 37's goal for the exam-start storm: every learner done within
// stormAllWithin, each learner's start, read and save within stormEachP99
// at the 99th percentile, no error.
const (
	stormAllWithin = 1500 * time.Millisecond
	stormEachP99   = 300 * time.Millisecond
)

// storm is an exam opening: a timed quiz published, then o.storm learners
// (signed in, connected, with no attempt of it) each start it, read it and
// save one answer, o.stormAt at a time, as fast as they are answered. A
// learner's latency is the three requests together; the row's rate is
// learners a second over the whole storm, its limit column the wall time
// and the CPU a learner cost.
func (w *world) storm(o options) (loadkit.Row, []loadkit.Goal, error) {
	n := min(o.storm, len(w.learners))
	quiz, err := w.api.PublishQuiz(w.mod.Token, "Bench exam", o.questions, func(int) string { return "the alphabet" })
	if err != nil {
		return loadkit.Row{}, nil, err
	}
	log.Printf("exam-start storm: %d learners, %d at a time", n, o.stormAt)
	sitting := func(i int) error {
		l := &w.learners[i]
		wire := l.wire
		l.req = wire.AppendRequest(l.req[:0], http.MethodPost, fmt.Sprintf("/api/v1/attempts/start?quiz_id=%d", quiz.ID), l.token, nil, nil)
		body, err := wire.Read(l.req, l.body[:0])
		if err != nil {
			return fmt.Errorf("start: %w", err)
		}
		var started struct{ ID int64 }
		if err := json.Unmarshal(body, &started); err != nil {
			return fmt.Errorf("start: %w", err)
		}
		l.req = wire.AppendRequest(l.req[:0], http.MethodGet, fmt.Sprintf("/api/v1/quizzes/%d", quiz.ID), l.token, nil, nil)
		if err := wire.Do(l.req); err != nil {
			return fmt.Errorf("read: %w", err)
		}
		l.body = loadkit.AppendSave(body[:0], quiz.ID, started.ID, quiz.Questions, 1)
		l.req = wire.AppendRequest(l.req[:0], http.MethodPost, "/api/v1/attempts/progress", l.token,
			[]loadkit.Header{{Name: "X-Quiz-Session", Value: "bench-exam-" + strconv.Itoa(i)}}, l.body)
		if err := wire.Do(l.req); err != nil {
			return fmt.Errorf("save: %w", err)
		}
		return nil
	}

	var stop func()
	if o.cpuProfile != "" {
		var wg sync.WaitGroup
		done := make(chan struct{})
		wg.Add(1)
		go func() { defer wg.Done(); profileDuring(o.cpuProfile+"storm.prof", func() { <-done }) }()
		stop = func() { close(done); wg.Wait() }
	}
	self0, db0 := cpuTimes()
	begin := time.Now()
	lat, errs, firstErr := loadkit.Spread(o.stormAt, seq(0, n), sitting)
	all := time.Since(begin)
	self1, db1 := cpuTimes()
	if stop != nil {
		stop()
	}
	if firstErr != nil {
		log.Printf("storm: %d errors; first: %v", errs, firstErr)
	}
	per := time.Duration(max(1, n))
	row := loadkit.NewRow(fmt.Sprintf("Exam-start storm: %d learners start one timed quiz (%d questions), read it and save once, %d at a time", n, o.questions, o.stormAt),
		lat, all, errs)
	row.Limit = fmt.Sprintf("all done in %.2f s; CPU a learner: %d µs here (service and generator), %d µs Postgres",
		all.Seconds(), ((self1 - self0) / per).Microseconds(), ((db1 - db0) / per).Microseconds())
	goals := []loadkit.Goal{{
		Goal: fmt.Sprintf("1. Exam-start storm (%d learners, %d at a time): all within %.1f s, p99 < %d ms, 0 errors",
			n, o.stormAt, stormAllWithin.Seconds(), stormEachP99.Milliseconds()),
		Measured: fmt.Sprintf("%.2f s, p99 %.1f ms, %d errors", all.Seconds(), row.P99, errs),
		Met:      all <= stormAllWithin && row.P99 < float64(stormEachP99.Milliseconds()) && errs == 0 && n >= 1000,
	}}
	return row, goals, nil
}
