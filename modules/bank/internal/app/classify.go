package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/modules/bank/internal/store"
	"github.com/roundsedu/rounds/modules/bank/tagging"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// KindClassifyTags is the job that tags the bank's live questions, with the
// keyword model or the rule-based tagger.
const KindClassifyTags = "classify_tags"

// classifyBatch is how many questions one step reads and tags, each batch
// in its own short transaction.
const classifyBatch = 500

// queueFullRetry is the Retry-After of a 503 when the job queue is full.
const queueFullRetry = 30 * time.Second

// What picked the tags of a classification.
const (
	ClassifierModel = "model" // the keyword task's default model
	ClassifierRules = "rules" // the rule-based tagger (no keyword model)
)

// ClassifyResult is what a finished classification did.
type ClassifyResult struct {
	Questions   int    `json:"questions"`       // live questions read
	Tagged      int    `json:"tagged"`          // questions the tagger found a tag for
	TagsApplied int64  `json:"tags_applied"`    // (question, tag) pairs added
	Classifier  string `json:"classifier"`      // model or rules
	Model       string `json:"model,omitempty"` // the keyword model's model_id
	Dropped     int    `json:"dropped"`         // tags the model named that are not listed, or over the bound per question
}

// classifyPayload is a classification job's input: who started it, for
// the snapshot taken before it changes anything.
type classifyPayload struct {
	By int64 `json:"by,omitempty"`
}

func (classifyPayload) Kind() string { return KindClassifyTags }

// classifyTimeout bounds one classification of the whole bank: batches of
// classifyBatch questions, a keyword model call each.
const classifyTimeout = time.Hour

// ClassifyJob is a classification job as clients poll it.
type ClassifyJob struct {
	ID     string
	Status jobs.Status
	Steps  []jobs.Step
	Error  string
	Result *ClassifyResult // once completed
}

// RegisterJobs registers the bank's job kinds: one classification of the
// whole bank at a time, after the work people wait on.
func (s *Service) RegisterJobs(r *jobs.Runner) {
	jobs.Register(r, jobs.Kind[classifyPayload]{Handle: s.classifyJob, Priority: jobs.Background,
		Unique: jobs.OnePerKind, Timeout: classifyTimeout})
}

// StartClassify queues a classification of the whole bank (moderators
// only) and returns the job's id: while one waits or runs, a second
// request gets that one's id instead of queuing the same work twice.
func (s *Service) StartClassify(ctx context.Context, p auth.Principal) (string, error) {
	if !p.IsModerator() {
		return "", apperr.Forbiddenf("only moderators start tag classification")
	}
	id, err := s.queue.Enqueue(ctx, &p.UserID, classifyPayload{By: p.UserID})
	if errors.Is(err, jobs.ErrDuplicate) {
		return id.String(), nil
	}
	if errors.Is(err, jobs.ErrQueueFull) {
		return "", &apperr.Error{Code: apperr.Unavailable, RetryAfter: queueFullRetry,
			Message: "the job queue cannot accept a classification now; nothing was started, try again shortly"}
	}
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

// ClassifyStatus reports on a classification job; any other id (another
// kind of job included) is 404.
func (s *Service) ClassifyStatus(ctx context.Context, jobID string) (*ClassifyJob, error) {
	missing := apperr.NotFoundf("no classification job %q", jobID)
	id, err := uuid.Parse(jobID)
	if err != nil {
		return nil, missing
	}
	rec, err := s.queue.Get(ctx, id)
	if errors.Is(err, jobs.ErrNotFound) || (err == nil && rec.Kind != KindClassifyTags) {
		return nil, missing
	}
	if err != nil {
		return nil, err
	}
	out := &ClassifyJob{ID: rec.ID.String(), Status: rec.Status, Steps: rec.Steps, Error: rec.Error}
	if rec.Status == jobs.Completed {
		out.Result = &ClassifyResult{}
		if err := rec.Decode(out.Result); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// classifyJob snapshots the classification, then walks the live questions
// by id and adds the tags the keyword model picks, or with no keyword model
// the rule-based tagger's. It only adds (tags from offline tooling stay),
// so running it again, or resuming it after a lost worker, is safe; a
// resumed run keeps its first snapshot. A failing model call fails the job
// with the upstream's message; batches stored before it stay.
func (s *Service) classifyJob(ctx context.Context, run *jobs.Run[classifyPayload]) (any, error) {
	in := run.Args
	var by *int64
	if in.By != 0 {
		by = &in.By
	}
	if err := s.snapshotBeforeRun(ctx, run.ID, by); err != nil {
		return nil, err
	}
	tags, err := s.store.TagsOfTypes(ctx, TagSubject, TagDisease)
	if err != nil {
		return nil, err
	}
	total, err := s.store.CountLive(ctx)
	if err != nil {
		return nil, err
	}
	if err := run.Step(ctx, "started", fmt.Sprintf("%d live questions, %d subject and disease tags", total, len(tags))); err != nil {
		return nil, err
	}
	res := &ClassifyResult{Classifier: ClassifierRules}
	pick, err := s.classifier(ctx, tags, res)
	if err != nil {
		return nil, err
	}
	detail := "rule-based tagger (no keyword model)"
	if res.Classifier == ClassifierModel {
		detail = "keyword model " + res.Model
	}
	if err := run.Step(ctx, "classifier", detail); err != nil {
		return nil, err
	}
	for after := int64(0); ; {
		batch, err := s.store.QuestionTexts(ctx, after, classifyBatch)
		if err != nil || len(batch) == 0 {
			return res, err
		}
		after = batch[len(batch)-1].ID
		byQuestion, err := pick(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("%w; this batch was not stored", err)
		}
		ids := make([]int64, 0, len(byQuestion))
		for _, q := range batch {
			if len(byQuestion[q.ID]) > 0 {
				ids = append(ids, q.ID)
			}
		}
		err = s.write(ctx, func(ctx context.Context) error {
			if len(ids) == 0 {
				return nil
			}
			// Share-locked: a question purged meanwhile is skipped, not a
			// foreign-key failure.
			live, err := s.store.LockLive(ctx, ids)
			if err != nil {
				return err
			}
			var qs, ts []int64
			for _, id := range live {
				for _, tag := range byQuestion[id] {
					qs, ts = append(qs, id), append(ts, tag)
				}
			}
			n, err := s.store.AddQuestionTags(ctx, qs, ts)
			res.TagsApplied += n
			return err
		})
		if err != nil {
			return nil, err
		}
		res.Questions += len(batch)
		res.Tagged += len(ids)
		if err := run.Step(ctx, "classified", fmt.Sprintf("%d of %d questions", res.Questions, total)); err != nil {
			return nil, err
		}
	}
}

// picker gives the tags that apply to each question of a batch. It runs
// outside any transaction (the model's calls are remote).
type picker func(ctx context.Context, batch []store.QuestionText) (map[int64][]int64, error)

// classifier chooses how this run tags: the keyword model when the AI
// module has an active default one (res says which), else the rules.
func (s *Service) classifier(ctx context.Context, tags []store.Tag, res *ClassifyResult) (picker, error) {
	tagger, err := s.ports.Keywords.KeywordTagger(ctx)
	if err != nil {
		return nil, err
	}
	if tagger == nil {
		t := newTagger(tags)
		return func(_ context.Context, batch []store.QuestionText) (map[int64][]int64, error) {
			out := map[int64][]int64{}
			for _, q := range batch {
				if m := t.match(q); len(m) > 0 {
					out[q.ID] = m
				}
			}
			return out, nil
		}, nil
	}
	res.Classifier, res.Model = ClassifierModel, tagger.Model()
	vocabulary := make([]tagging.Tag, len(tags))
	known := map[int64]bool{}
	for i, t := range tags {
		vocabulary[i] = tagging.Tag{ID: t.ID, Name: t.Name}
		known[t.ID] = true
	}
	return func(ctx context.Context, batch []store.QuestionText) (map[int64][]int64, error) {
		if len(vocabulary) == 0 {
			return nil, nil // nothing to pick from: no call
		}
		qs := make([]tagging.Question, len(batch))
		for i, q := range batch {
			qs[i] = tagging.Question{ID: q.ID, Text: q.QuestionText, CorrectAnswer: q.CorrectAnswer, Explanation: q.Explanation}
		}
		picks, err := tagger.Tag(ctx, qs, vocabulary)
		if err != nil {
			return nil, err
		}
		res.Dropped += picks.Dropped
		// The bank stores only subject and disease tags it listed, whatever
		// the port answers.
		out := map[int64][]int64{}
		for id, ts := range picks.Tags {
			for _, t := range ts {
				if known[t] {
					out[id] = append(out[id], t)
				}
			}
		}
		return out, nil
	}, nil
}
