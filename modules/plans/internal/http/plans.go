package http

import (
	"context"
	"time"

	"github.com/roundsedu/rounds/modules/plans/internal/app"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

// StudyPlan is a plan on the wire.
type StudyPlan struct {
	ID          int64      `json:"id"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Kind        string     `json:"kind" enum:"set,mixed"`
	IsPublished int        `json:"is_published" enum:"0,1"`
	Retired     bool       `json:"retired" doc:"published once, then set to is_published 0"`
	RetiredAt   *time.Time `json:"retired_at"`
	ExamDate    *string    `json:"exam_date" doc:"YYYY-MM-DD"`
	CreatedAt   time.Time  `json:"created_at"`
}

func toPlan(p *app.Plan) StudyPlan {
	out := StudyPlan{ID: p.ID, Title: p.Title, Description: p.Description, Kind: p.Kind, IsPublished: p.IsPublished,
		Retired: p.RetiredAt != nil, RetiredAt: p.RetiredAt, CreatedAt: p.CreatedAt}
	if p.ExamDate != nil {
		d := p.ExamDate.Format(time.DateOnly)
		out.ExamDate = &d
	}
	return out
}

// StudyPlanReading is a reading link with the caller's mark.
type StudyPlanReading struct {
	ID        int64      `json:"id"`
	ArticleID int64      `json:"article_id"`
	SectionID *string    `json:"section_id"`
	ReadAt    *time.Time `json:"read_at"`
}

// StudyPlanBlock is a block with the caller's progress.
type StudyPlanBlock struct {
	ID          int64              `json:"id"`
	Position    int                `json:"position"`
	Title       string             `json:"title"`
	QuestionIDs []int64            `json:"question_ids"`
	Reading     []StudyPlanReading `json:"reading"`
	QuizID      *int64             `json:"quiz_id" doc:"the caller's saved test last started"`
	Mode        *string            `json:"mode"`
	StartedAt   *time.Time         `json:"started_at"`
	CompletedAt *time.Time         `json:"completed_at"`
}

// StudyPlanDetail is a plan with its blocks and the caller's progress.
type StudyPlanDetail struct {
	StudyPlan
	Enrolled        bool             `json:"enrolled"`
	Blocks          []StudyPlanBlock `json:"blocks"`
	BlocksCompleted int              `json:"blocks_completed"`
	ReadingTotal    int              `json:"reading_total"`
	ReadingDone     int              `json:"reading_done"`
}

func toDetail(d *app.Detail) StudyPlanDetail {
	out := StudyPlanDetail{StudyPlan: toPlan(d.Plan), Enrolled: d.Enrolled, Blocks: make([]StudyPlanBlock, len(d.Blocks))}
	for i, b := range d.Blocks {
		br := StudyPlanBlock{ID: b.ID, Position: b.Position, Title: b.Title, QuestionIDs: b.QuestionIDs, Reading: []StudyPlanReading{}}
		for _, l := range d.Links[b.ID] {
			rr := StudyPlanReading{ID: l.ID, ArticleID: l.ArticleID, SectionID: l.SectionID}
			if at, ok := d.Read[l.ID]; ok {
				rr.ReadAt = &at
				out.ReadingDone++
			}
			out.ReadingTotal++
			br.Reading = append(br.Reading, rr)
		}
		if p, ok := d.Progress[b.ID]; ok {
			br.QuizID, br.Mode, br.StartedAt, br.CompletedAt = &p.QuizID, &p.Mode, &p.StartedAt, p.CompletedAt
			if p.CompletedAt != nil {
				out.BlocksCompleted++
			}
		}
		out.Blocks[i] = br
	}
	return out
}

type detailOut struct{ Body StudyPlanDetail }

// StudyPlanReadingItem is a reading link a moderator attaches to a block.
type StudyPlanReadingItem struct {
	ArticleID int64  `json:"article_id" minimum:"1"`
	SectionID string `json:"section_id,omitempty" required:"false" maxLength:"64"`
}

// BlueprintDomainItem is a content domain of a blueprint.
type BlueprintDomainItem struct {
	Name        string  `json:"name" maxLength:"1000"`
	Weight      float64 `json:"weight" exclusiveMinimum:"0" maximum:"1000000"`
	QuestionIDs []int64 `json:"question_ids,omitempty" required:"false" maxItems:"5000" doc:"questions the domain draws from"`
	CategoryID  *int64  `json:"category_id,omitempty" required:"false" minimum:"1" doc:"draw from this question category's branch too"`
	TagIDs      []int64 `json:"tag_ids,omitempty" required:"false" maxItems:"20" doc:"draw from questions carrying every one of these tags too (with category_id: both)"`
}

func (d BlueprintDomainItem) domain() app.BlueprintDomain {
	return app.BlueprintDomain{Name: d.Name, Weight: d.Weight, QuestionIDs: d.QuestionIDs, CategoryID: d.CategoryID, TagIDs: d.TagIDs}
}

func parseDate(v string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return d, apperr.Invalidf("body.exam_date", "exam_date must be a date (YYYY-MM-DD)")
	}
	return d, nil
}

type planPath struct {
	ID int64 `path:"plan_id" minimum:"1"`
}

// CreatePlanInput is a new plan.
type CreatePlanInput struct {
	Body struct {
		Title       string `json:"title" maxLength:"1000"`
		Description string `json:"description,omitempty" required:"false" maxLength:"20000"`
		Kind        string `json:"kind" enum:"set,mixed" doc:"set: question blocks; mixed: blocks may carry reading"`
		ExamDate    string `json:"exam_date,omitempty" required:"false" format:"date" doc:"YYYY-MM-DD; flashcards may schedule to it"`
	} `nameHint:"Post-study-plansRequest"`
}

// PatchPlanInput edits a plan's text and exam date.
type PatchPlanInput struct {
	ID   int64 `path:"plan_id" minimum:"1"`
	Body struct {
		Title       *string `json:"title,omitempty" required:"false" maxLength:"1000"`
		Description *string `json:"description,omitempty" required:"false" maxLength:"20000"`
		ExamDate    *string `json:"exam_date,omitempty" required:"false" maxLength:"10" doc:"YYYY-MM-DD; an empty string clears it"`
	} `nameHint:"Patch-study-plans-by-plan-idRequest"`
}

// PublishPlanInput publishes or retires a plan.
type PublishPlanInput struct {
	ID        int64 `path:"plan_id" minimum:"1"`
	Published bool  `query:"published" default:"true"`
}

// AddBlockInput appends a block to a plan.
type AddBlockInput struct {
	ID   int64 `path:"plan_id" minimum:"1"`
	Body struct {
		Title       string                 `json:"title" maxLength:"1000"`
		QuestionIDs []int64                `json:"question_ids" maxItems:"1000"`
		Reading     []StudyPlanReadingItem `json:"reading,omitempty" required:"false" maxItems:"50"`
	} `nameHint:"Post-study-plans-by-plan-id-blocksRequest"`
}

// StartBlockInput starts a block in a mode.
type StartBlockInput struct {
	ID   int64  `path:"block_id" minimum:"1"`
	Mode string `query:"mode" required:"true" enum:"learning,timed"`
}

type blockStartedOut struct {
	Body struct {
		BlockID int64  `json:"block_id"`
		QuizID  int64  `json:"quiz_id"`
		Mode    string `json:"mode"`
		Reused  bool   `json:"reused"`
	} `nameHint:"Post-study-plans-blocks-by-block-id-startResponse"`
}

// MarkReadInput marks a reading link read or unread.
type MarkReadInput struct {
	ID   int64 `path:"link_id" minimum:"1"`
	Read bool  `query:"read" default:"true"`
}

// FromBlueprintInput draws a plan from a blueprint.
type FromBlueprintInput struct {
	Body struct {
		Title   string                `json:"title" maxLength:"1000"`
		Shape   string                `json:"shape" enum:"papers,domains"`
		Papers  int                   `json:"papers,omitempty" required:"false" minimum:"1" maximum:"50" default:"1" doc:"papers: how many"`
		Size    int                   `json:"size" minimum:"1" maximum:"2000" doc:"papers: questions per paper; domains: questions in all"`
		Domains []BlueprintDomainItem `json:"domains" minItems:"1" maxItems:"50"`
		Seed    *uint64               `json:"seed,omitempty" required:"false" doc:"repeat a draw"`
	} `nameHint:"Post-study-plans-from-blueprintRequest"`
}

type planOut struct{ Body StudyPlan }

func toReadings(rs []StudyPlanReadingItem) []app.Reading {
	var out []app.Reading
	for _, rd := range rs {
		out = append(out, app.Reading{ArticleID: rd.ArticleID, SectionID: rd.SectionID})
	}
	return out
}

func toDomains(ds []BlueprintDomainItem) []app.BlueprintDomain {
	var out []app.BlueprintDomain
	for _, d := range ds {
		out = append(out, d.domain())
	}
	return out
}

// detail answers the plan as the caller now sees it.
func (h *handlers) detail(ctx context.Context, id int64) (*detailOut, error) {
	d, err := h.svc.Get(ctx, auth.MustFrom(ctx), id)
	if err != nil {
		return nil, err
	}
	return &detailOut{toDetail(d)}, nil
}

func (h *handlers) listPlans(ctx context.Context, in *httpapi.Page) (*httpapi.Listing[StudyPlan], error) {
	ps, total, err := h.svc.Plans(ctx, auth.MustFrom(ctx), in.Limit, in.Offset)
	if err != nil {
		return nil, err
	}
	return httpapi.ListOf(ps, total, toPlan), nil
}

func (h *handlers) createPlan(ctx context.Context, in *CreatePlanInput) (*detailOut, error) {
	np := app.NewPlan{Title: in.Body.Title, Description: in.Body.Description, Kind: in.Body.Kind}
	if in.Body.ExamDate != "" {
		d, err := parseDate(in.Body.ExamDate)
		if err != nil {
			return nil, err
		}
		np.ExamDate = &d
	}
	plan, err := h.svc.CreatePlan(ctx, auth.MustFrom(ctx), np)
	if err != nil {
		return nil, err
	}
	return h.detail(ctx, plan.ID)
}

func (h *handlers) getPlan(ctx context.Context, in *planPath) (*detailOut, error) {
	return h.detail(ctx, in.ID)
}

func (h *handlers) patchPlan(ctx context.Context, in *PatchPlanInput) (*detailOut, error) {
	pt := app.PlanPatch{Title: in.Body.Title, Description: in.Body.Description, SetExamDate: in.Body.ExamDate != nil}
	if pt.SetExamDate && *in.Body.ExamDate != "" {
		d, err := parseDate(*in.Body.ExamDate)
		if err != nil {
			return nil, err
		}
		pt.ExamDate = &d
	}
	if _, err := h.svc.UpdatePlan(ctx, in.ID, pt); err != nil {
		return nil, err
	}
	return h.detail(ctx, in.ID)
}

func (h *handlers) publishPlan(ctx context.Context, in *PublishPlanInput) (*planOut, error) {
	plan, err := h.svc.SetPublished(ctx, in.ID, in.Published)
	if err != nil {
		return nil, err
	}
	return &planOut{toPlan(plan)}, nil
}

func (h *handlers) deletePlan(ctx context.Context, in *planPath) (*struct{}, error) {
	return nil, h.svc.Delete(ctx, in.ID)
}

func (h *handlers) addBlock(ctx context.Context, in *AddBlockInput) (*detailOut, error) {
	nb := app.NewBlock{Title: in.Body.Title, QuestionIDs: in.Body.QuestionIDs, Reading: toReadings(in.Body.Reading)}
	if _, _, err := h.svc.AddBlock(ctx, in.ID, nb); err != nil {
		return nil, err
	}
	return h.detail(ctx, in.ID)
}

func (h *handlers) enrol(ctx context.Context, in *planPath) (*detailOut, error) {
	d, err := h.svc.Enrol(ctx, auth.MustFrom(ctx), in.ID)
	if err != nil {
		return nil, err
	}
	return &detailOut{toDetail(d)}, nil
}

func (h *handlers) startBlock(ctx context.Context, in *StartBlockInput) (*blockStartedOut, error) {
	st, err := h.svc.StartBlock(ctx, auth.MustFrom(ctx), in.ID, in.Mode)
	if err != nil {
		return nil, err
	}
	out := &blockStartedOut{}
	out.Body.BlockID, out.Body.QuizID, out.Body.Mode, out.Body.Reused = st.BlockID, st.QuizID, st.Mode, st.Reused
	return out, nil
}

func (h *handlers) markRead(ctx context.Context, in *MarkReadInput) (*struct{}, error) {
	return nil, h.svc.MarkRead(ctx, auth.MustFrom(ctx), in.ID, in.Read)
}

func (h *handlers) fromBlueprint(ctx context.Context, in *FromBlueprintInput) (*detailOut, error) {
	b := in.Body
	bp := app.Blueprint{Title: b.Title, Shape: b.Shape, Papers: b.Papers, Size: b.Size, Seed: b.Seed, Domains: toDomains(b.Domains)}
	d, err := h.svc.FromBlueprint(ctx, auth.MustFrom(ctx), bp)
	if err != nil {
		return nil, err
	}
	return &detailOut{toDetail(d)}, nil
}
