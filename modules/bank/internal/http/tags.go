package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// TagCountBody is a tag with the live questions carrying it.
type TagCountBody struct {
	ID            int64  `json:"id"`
	Type          string `json:"type"`
	Name          string `json:"name"`
	QuestionCount int    `json:"question_count"`
}

type tagsOutput struct {
	Body struct {
		Subjects []TagCountBody `json:"subjects"`
		Diseases []TagCountBody `json:"diseases"`
		Systems  []TagCountBody `json:"systems" doc:"carried through the category tree"`
		Keywords []TagCountBody `json:"keywords" doc:"retired: always empty"`
	}
}

type tagJobInput struct {
	JobID string `path:"job_id" maxLength:"100"`
}

type classifyStartedOutput struct {
	Body struct {
		JobID  string `json:"job_id"`
		Status string `json:"status" enum:"started"`
	}
}

// JobStepBody is one line of a job's progress.
type JobStepBody struct {
	Name   string    `json:"name"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// ClassifyResultBody is what a completed classification did.
type ClassifyResultBody struct {
	Questions   int    `json:"questions" doc:"live questions read"`
	Tagged      int    `json:"tagged" doc:"questions the tagger found a tag for"`
	TagsApplied int64  `json:"tags_applied" doc:"question-tag pairs added (pairs already there are not counted)"`
	Classifier  string `json:"classifier" enum:"model,rules" doc:"model: the keyword task's default model picked the tags; rules: the rule-based tagger (no keyword model)"`
	Model       string `json:"model,omitempty" required:"false" doc:"the keyword model's model_id"`
	Dropped     int    `json:"dropped" doc:"tags the model named that are not existing subject or disease tags, or over 8 for one question (ignored)"`
}

type tagJobOutput struct {
	Body struct {
		JobID  string              `json:"job_id"`
		Status string              `json:"status" enum:"pending,running,completed,failed,cancelled"`
		Steps  []JobStepBody       `json:"steps"`
		Error  *string             `json:"error"`
		Result *ClassifyResultBody `json:"result" doc:"set once completed"`
	}
}

func toTagCounts(in []app.TagCount) []TagCountBody {
	out := make([]TagCountBody, 0, len(in))
	for _, t := range in {
		out = append(out, TagCountBody(t))
	}
	return out
}

func (h *handlers) tags(ctx context.Context, _ *struct{}) (*tagsOutput, error) {
	g, err := h.svc.Tags(ctx)
	if err != nil {
		return nil, err
	}
	out := &tagsOutput{}
	out.Body.Subjects, out.Body.Diseases = toTagCounts(g.Subjects), toTagCounts(g.Diseases)
	out.Body.Systems, out.Body.Keywords = toTagCounts(g.Systems), toTagCounts(g.Keywords)
	return out, nil
}

func (h *handlers) startClassify(ctx context.Context, _ *struct{}) (*classifyStartedOutput, error) {
	id, err := h.svc.StartClassify(ctx, auth.MustFrom(ctx))
	if err != nil {
		return nil, err
	}
	out := &classifyStartedOutput{}
	out.Body.JobID, out.Body.Status = id, "started"
	return out, nil
}

func (h *handlers) classifyStatus(ctx context.Context, in *tagJobInput) (*tagJobOutput, error) {
	j, err := h.svc.ClassifyStatus(ctx, in.JobID)
	if err != nil {
		return nil, err
	}
	out := &tagJobOutput{}
	out.Body.JobID, out.Body.Status = j.ID, string(j.Status)
	out.Body.Steps = toJobSteps(j.Steps)
	if j.Error != "" {
		out.Body.Error = &j.Error
	}
	if j.Result != nil {
		r := ClassifyResultBody(*j.Result)
		out.Body.Result = &r
	}
	return out, nil
}

func toJobSteps(steps []jobs.Step) []JobStepBody {
	out := make([]JobStepBody, len(steps))
	for i, st := range steps {
		out[i] = JobStepBody(st)
	}
	return out
}
