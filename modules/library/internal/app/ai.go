package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/jobs"
)

// Job kinds the library queues.
const (
	JobGenerateDraft = "generate_article_draft"
	JobGenerateCards = "generate_article_cards"
)

// Sources are the grounding sources an article generation may be offered.
var Sources = []string{"bank", "article", "references"}

// GenerationRequest is what a generation job is asked to do.
type GenerationRequest struct {
	Mode         string    `json:"mode"` // draft, refine, cards
	ArticleID    int64     `json:"article_id,omitempty"`
	Title        string    `json:"title,omitempty"`
	SectionID    string    `json:"section_id,omitempty"`
	Instructions string    `json:"instructions,omitempty"`
	Sources      []string  `json:"sources,omitempty"`
	CategoryID   *int64    `json:"category_id,omitempty"` // a draft: filed there, grounded on its questions
	RequestedBy  int64     `json:"requested_by"`
	Role         auth.Role `json:"role,omitempty"` // the requester's role when they asked
}

// GenerateDraft is a generate_article_draft job: a new draft, or a
// refinement of an article (Mode).
type GenerateDraft struct{ GenerationRequest }

func (GenerateDraft) Kind() string { return JobGenerateDraft }

// GenerateCards is a generate_article_cards job.
type GenerateCards struct{ GenerationRequest }

func (GenerateCards) Kind() string { return JobGenerateCards }

// Generate queues a generation job (POST /articles/ai-draft, ai-refine and
// ai-cards). Refining and making cards need an article the caller may
// edit; a new draft and cards are moderators' (the routes check the role).
func (s *Service) Generate(ctx context.Context, p auth.Principal, in GenerationRequest) (string, error) {
	for _, src := range in.Sources {
		if !slices.Contains(Sources, src) {
			return "", apperr.Invalidf("sources", "sources are %s", strings.Join(Sources, ", "))
		}
	}
	if err := checkText("instructions", in.Instructions); err != nil {
		return "", err
	}
	if in.Mode == "draft" {
		if _, err := s.checkTitle(in.Title); err != nil {
			return "", err
		}
		if err := s.checkCategory(ctx, in.CategoryID); err != nil {
			return "", err
		}
	} else if err := s.mayEdit(ctx, p, in.ArticleID); err != nil {
		return "", err
	}
	in.RequestedBy, in.Role = p.UserID, p.Role
	var args jobs.Args = GenerateDraft{in}
	if in.Mode == "cards" {
		args = GenerateCards{in}
	}
	id, err := s.queue.Enqueue(ctx, &p.UserID, args)
	if errors.Is(err, jobs.ErrQueueFull) {
		return "", &apperr.Error{Code: apperr.Unavailable, RetryAfter: 30 * time.Second,
			Message: "the generation queue cannot accept a job now; nothing was started, try again shortly"}
	}
	return id.String(), err
}

// Job is a generation job as its requester polls it.
type Job = jobs.Record

// GenerationJob reads one of the caller's generation jobs (others' and
// malformed ids are not found).
func (s *Service) GenerationJob(ctx context.Context, p auth.Principal, id string) (*Job, error) {
	uid, err := uuid.Parse(id)
	if err != nil {
		return nil, apperr.NotFoundf("job %s not found", id)
	}
	rec, err := s.queue.Get(ctx, uid)
	if errors.Is(err, jobs.ErrNotFound) || (err == nil && ((rec.Kind != JobGenerateDraft && rec.Kind != JobGenerateCards) ||
		rec.OwnerID == nil || *rec.OwnerID != p.UserID)) {
		return nil, apperr.NotFoundf("job %s not found", id)
	}
	return rec, err
}
