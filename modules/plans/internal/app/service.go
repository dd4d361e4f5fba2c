// Package app is the plans module's logic: study plans of ordered blocks
// with fixed question lists (and reading in mixed plans), published and
// retired by moderators, deleted only by an admin; learners enrol, start a
// block as their saved test and complete it by sitting it; blueprints
// draw plans from weighted content domains.
package app

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/roundsedu/rounds/modules/bank"
	"github.com/roundsedu/rounds/modules/plans/internal/store"
	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/db"
)

// Config is the plans section.
type Config struct {
	MaxBlockQuestions int `mapstructure:"max_block_questions" validate:"gte=1"`
	// MinutesPerQuestion times a block sat in timed mode.
	MinutesPerQuestion int `mapstructure:"minutes_per_question" validate:"gte=1"`
}

// Bank is what plans asks of the bank (bank.Facade satisfies it).
type Bank interface {
	QuestionFilings(ctx context.Context, ids []int64) (map[int64]bank.Filing, error)
	QuizForSitting(ctx context.Context, p auth.Principal, quizID int64) (*bank.QuizSnapshot, error)
	DomainQuestions(ctx context.Context, p auth.Principal, categoryID *int64, tagIDs []int64) ([]int64, error)
}

// SavedTests is what a module offers to build a learner's saved test: a
// quiz of the given questions limited to what p may see, that p may sit,
// in mode (bank.ModeLearning or bank.ModeTimed) with a time limit (0:
// none). The bank offers it; without one, starting a block answers 503.
type SavedTests interface {
	BuildSavedTest(ctx context.Context, p auth.Principal, title, mode string, timeLimitMinutes int,
		questionIDs []int64) (quizID int64, err error)
}

// Articles is what the library offers to check reading links (as labs
// asks it); until it is in the app, reading links are refused.
type Articles interface {
	ArticleSectionExists(ctx context.Context, articleID int64, sectionID string) (article, section bool, err error)
}

// Ports are filled once every module is built; SavedTests, Articles and
// Decks are optional.
type Ports struct {
	Bank       Bank
	Attempts   Sittings
	SavedTests []SavedTests
	Articles   []Articles
	Decks      []Decks
}

// Plan, Block, ReadingLink and Progress are the stored shapes.
type (
	Plan        = store.Plan
	Block       = store.Block
	ReadingLink = store.ReadingLink
	Progress    = store.Progress
)

// Service holds the plans rules.
type Service struct {
	db    *db.DB
	store *store.Store
	ports *Ports
	cfg   Config
}

// New builds the service.
func New(d *db.DB, ports *Ports, cfg Config) *Service {
	return &Service{db: d, store: store.New(d), ports: ports, cfg: cfg}
}

// NewPlan is what a moderator sends to create a plan.
type NewPlan struct {
	Title, Description, Kind string
	ExamDate                 *time.Time
}

func checkText(field, v string, max int, required bool) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case required && v == "":
		return "", apperr.Invalidf("body."+field, "%s is required and must not be blank", field)
	case utf8.RuneCountInString(v) > max:
		return "", apperr.Invalidf("body."+field, "%s must be at most %d characters", field, max)
	case strings.ContainsRune(v, 0):
		return "", apperr.Invalidf("body."+field, "%s must not contain NUL characters", field)
	}
	return v, nil
}

// CreatePlan stores an unpublished plan.
func (s *Service) CreatePlan(ctx context.Context, p auth.Principal, in NewPlan) (*Plan, error) {
	title, err := checkText("title", in.Title, 200, true)
	if err != nil {
		return nil, err
	}
	desc, err := checkText("description", in.Description, 4000, false)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Title: title, Description: desc, Kind: in.Kind, ExamDate: in.ExamDate, CreatedBy: p.UserID}
	return plan, s.db.Tx(ctx, func(ctx context.Context) error { return s.store.InsertPlan(ctx, plan) })
}

// PlanPatch is a moderator's edit of a plan: nil fields stay as they are;
// SetExamDate writes ExamDate (nil clears it).
type PlanPatch struct {
	Title, Description *string
	SetExamDate        bool
	ExamDate           *time.Time
}

// UpdatePlan edits a plan's title, description and exam date (published or
// not: the blocks, which learners' progress hangs on, never change).
func (s *Service) UpdatePlan(ctx context.Context, id int64, in PlanPatch) (*Plan, error) {
	var err error
	var title, desc string
	if in.Title != nil {
		if title, err = checkText("title", *in.Title, 200, true); err != nil {
			return nil, err
		}
	}
	if in.Description != nil {
		if desc, err = checkText("description", *in.Description, 4000, false); err != nil {
			return nil, err
		}
	}
	var out *Plan
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		plan, err := s.store.Plan(ctx, id, true)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("study plan %d not found", id)
		}
		if err != nil {
			return err
		}
		if in.Title != nil {
			plan.Title = title
		}
		if in.Description != nil {
			plan.Description = desc
		}
		if in.SetExamDate {
			plan.ExamDate = in.ExamDate
		}
		out = plan
		return s.store.UpdatePlan(ctx, plan)
	})
	return out, err
}

// visible loads a plan p may read: moderators any, others a published plan
// or one they are enrolled in (404 otherwise).
func (s *Service) visible(ctx context.Context, p auth.Principal, id int64) (*Plan, error) {
	plan, err := s.store.Plan(ctx, id, false)
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("study plan %d not found", id)
	}
	if err != nil || p.IsModerator() || plan.IsPublished == 1 {
		return plan, err
	}
	ok, err := s.store.Enrolled(ctx, id, p.UserID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.NotFoundf("study plan %d not found", id)
	}
	return plan, nil
}

// Plans lists what p may read, newest first.
func (s *Service) Plans(ctx context.Context, p auth.Principal, limit, offset int) ([]Plan, int64, error) {
	return s.store.Plans(ctx, p.IsModerator(), p.UserID, limit, offset)
}

// SetPublished publishes a plan or retires it (is_published 0). A plan
// with no block is not published.
func (s *Service) SetPublished(ctx context.Context, id int64, published bool) (*Plan, error) {
	var out *Plan
	err := s.db.Tx(ctx, func(ctx context.Context) error {
		plan, err := s.store.Plan(ctx, id, true)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("study plan %d not found", id)
		}
		if err != nil {
			return err
		}
		flag := 0
		if published {
			flag = 1
			bs, _, err := s.store.Blocks(ctx, id)
			if err != nil {
				return err
			}
			if len(bs) == 0 {
				return apperr.Conflictf("study plan %d has no blocks to publish", id)
			}
		}
		out = plan
		return s.store.SetPublished(ctx, plan, flag)
	})
	return out, err
}

// Delete removes a plan for good: the one deletion path, for admins, and
// only once the plan is retired or was never published.
func (s *Service) Delete(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context) error {
		plan, err := s.store.Plan(ctx, id, true)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("study plan %d not found", id)
		}
		if err != nil {
			return err
		}
		if plan.IsPublished == 1 {
			return apperr.Conflictf("study plan %d is published: retire it (is_published 0) before deleting it", id)
		}
		return s.store.DeletePlan(ctx, id)
	})
}

// Reading is one reading link a moderator attaches to a block.
type Reading struct {
	ArticleID int64
	SectionID string
}

// NewBlock is a block a moderator builds.
type NewBlock struct {
	Title       string
	QuestionIDs []int64
	Reading     []Reading
}

// AddBlock appends a block to a plan. Its question ids are checked live in
// the bank and fixed from now on; reading goes only on mixed plans.
func (s *Service) AddBlock(ctx context.Context, planID int64, in NewBlock) (*Block, []ReadingLink, error) {
	title, err := checkText("title", in.Title, 200, true)
	if err != nil {
		return nil, nil, err
	}
	ids, err := s.liveQuestions(ctx, "body.question_ids", in.QuestionIDs)
	if err != nil {
		return nil, nil, err
	}
	links, err := s.readingLinks(ctx, in.Reading)
	if err != nil {
		return nil, nil, err
	}
	b := &Block{PlanID: planID, Title: title, QuestionIDs: ids}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		plan, err := s.store.Plan(ctx, planID, true)
		if db.IsNotFound(err) {
			return apperr.NotFoundf("study plan %d not found", planID)
		}
		if err != nil {
			return err
		}
		if len(links) > 0 && plan.Kind != "mixed" {
			return apperr.Invalidf("body.reading", "only mixed plans carry reading; plan %d is a %s plan", planID, plan.Kind)
		}
		return s.store.InsertBlock(ctx, b, links)
	})
	return b, links, err
}

// liveQuestions checks a question list: not empty, bounded, no repeats,
// every id a live bank question.
func (s *Service) liveQuestions(ctx context.Context, field string, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, apperr.Invalidf(field, "a block needs at least one question")
	}
	if len(ids) > s.cfg.MaxBlockQuestions {
		return nil, apperr.Invalidf(field, "a block holds at most %d questions", s.cfg.MaxBlockQuestions)
	}
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			return nil, apperr.Invalidf(field, "question %d is listed twice", id)
		}
		seen[id] = true
	}
	live, err := s.ports.Bank.QuestionFilings(ctx, ids)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, id := range ids {
		if _, ok := live[id]; !ok {
			missing = append(missing, fmt.Sprint(id))
		}
	}
	if len(missing) > 0 {
		return nil, apperr.Invalidf(field, "these questions are not in the bank (missing or trashed): %s", strings.Join(missing, ", "))
	}
	return ids, nil
}

func (s *Service) readingLinks(ctx context.Context, in []Reading) ([]ReadingLink, error) {
	var out []ReadingLink
	for i, r := range in {
		field := fmt.Sprintf("body.reading[%d].article_id", i)
		if len(s.ports.Articles) == 0 {
			return nil, apperr.Invalidf(field, "reading cannot be linked: this service has no library module, so no article can be checked")
		}
		section := strings.TrimSpace(r.SectionID)
		article, ok, err := s.ports.Articles[0].ArticleSectionExists(ctx, r.ArticleID, section)
		switch {
		case err != nil:
			return nil, err
		case !article:
			return nil, apperr.Invalidf(field, "article %d does not exist", r.ArticleID)
		case section != "" && !ok:
			return nil, apperr.Invalidf(fmt.Sprintf("body.reading[%d].section_id", i), "article %d has no section %q", r.ArticleID, section)
		}
		l := ReadingLink{ArticleID: r.ArticleID}
		if section != "" {
			l.SectionID = &section
		}
		out = append(out, l)
	}
	return out, nil
}

// Detail is a plan as p reads it: blocks, reading and p's own progress.
type Detail struct {
	Plan     *Plan
	Blocks   []Block
	Links    map[int64][]ReadingLink
	Progress map[int64]Progress
	Read     map[int64]time.Time
	Enrolled bool
}

// Get reads a plan with the caller's progress.
func (s *Service) Get(ctx context.Context, p auth.Principal, id int64) (*Detail, error) {
	plan, err := s.visible(ctx, p, id)
	if err != nil {
		return nil, err
	}
	d := &Detail{Plan: plan}
	if d.Blocks, d.Links, err = s.store.Blocks(ctx, id); err != nil {
		return nil, err
	}
	if d.Progress, err = s.store.Progress(ctx, id, p.UserID); err != nil {
		return nil, err
	}
	if d.Read, err = s.store.ReadLinks(ctx, id, p.UserID); err != nil {
		return nil, err
	}
	d.Enrolled, err = s.store.Enrolled(ctx, id, p.UserID)
	return d, err
}

// Enrol enrols the caller in a published plan (again: no change); a
// retired plan takes no new learners.
func (s *Service) Enrol(ctx context.Context, p auth.Principal, id int64) (*Detail, error) {
	plan, err := s.visible(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if plan.IsPublished != 1 {
		return nil, apperr.Conflictf("study plan %d is not published and takes no learners", id)
	}
	if err := s.db.Tx(ctx, func(ctx context.Context) error { return s.store.Enrol(ctx, id, p.UserID) }); err != nil {
		return nil, err
	}
	return s.Get(ctx, p, id)
}

// Started is the saved test a block start gives.
type Started struct {
	BlockID, QuizID int64
	Mode            string
	Reused          bool
}

// ErrNoSavedTests is why a block cannot start yet.
var ErrNoSavedTests = &apperr.Error{Code: apperr.Unavailable,
	Message: "blocks cannot be started yet: the bank offers no saved tests to build them from"}

// StartBlock builds or reuses the caller's saved test of a block in mode;
// the learner then sits it through attempts (POST /attempts/start with the
// quiz id). Starting enrols the caller. Building is another module's write,
// so it happens before this module's transaction.
func (s *Service) StartBlock(ctx context.Context, p auth.Principal, blockID int64, mode string) (*Started, error) {
	b, err := s.store.Block(ctx, blockID)
	if db.IsNotFound(err) {
		return nil, apperr.NotFoundf("block %d not found", blockID)
	}
	if err != nil {
		return nil, err
	}
	plan, err := s.visible(ctx, p, b.PlanID)
	if err != nil {
		return nil, apperr.NotFoundf("block %d not found", blockID)
	}
	if plan.IsPublished != 1 && !p.IsModerator() {
		return nil, apperr.Conflictf("study plan %d is retired: its blocks no longer start", plan.ID)
	}
	quiz, err := s.store.SavedTest(ctx, blockID, p.UserID, mode)
	if err != nil {
		return nil, err
	}
	limit := 0
	if mode == bank.ModeTimed {
		limit = len(b.QuestionIDs) * s.cfg.MinutesPerQuestion
	}
	out := &Started{BlockID: blockID, Mode: mode}
	out.QuizID, out.Reused, err = s.savedTest(ctx, p, quiz, fmt.Sprintf("%s: %s", plan.Title, b.Title), mode, limit, b.QuestionIDs)
	if err != nil {
		return nil, err
	}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.Enrol(ctx, plan.ID, p.UserID); err != nil {
			return err
		}
		return s.store.SaveTest(ctx, blockID, p.UserID, mode, out.QuizID)
	})
	return out, err
}

// savedTest reuses quiz, p's saved test from an earlier start, while p may
// still sit it; otherwise it has one built (503 with no builder).
func (s *Service) savedTest(ctx context.Context, p auth.Principal, quiz int64, title, mode string, limit int,
	ids []int64) (int64, bool, error) {
	if quiz != 0 {
		_, err := s.ports.Bank.QuizForSitting(ctx, p, quiz)
		if err == nil {
			return quiz, true, nil
		}
		if !errors.Is(err, bank.ErrNotFound) {
			return 0, false, err
		}
	}
	if len(s.ports.SavedTests) == 0 {
		return 0, false, ErrNoSavedTests
	}
	quiz, err := s.ports.SavedTests[0].BuildSavedTest(ctx, p, title, mode, limit, ids)
	return quiz, false, err
}

// Completed marks done the block whose saved test the completed attempt
// sat (submitted, handed in or auto-closed); idempotent.
func (s *Service) Completed(ctx context.Context, userID, quizID, attemptID int64, at time.Time) error {
	return s.db.Tx(ctx, func(ctx context.Context) error { return s.store.Complete(ctx, userID, quizID, attemptID, at) })
}

// MarkRead records the caller's reading of a link (read false: unread).
func (s *Service) MarkRead(ctx context.Context, p auth.Principal, linkID int64, read bool) error {
	_, planID, err := s.store.Link(ctx, linkID)
	if db.IsNotFound(err) {
		return apperr.NotFoundf("reading link %d not found", linkID)
	}
	if err != nil {
		return err
	}
	if _, err := s.visible(ctx, p, planID); err != nil {
		return apperr.NotFoundf("reading link %d not found", linkID)
	}
	return s.db.Tx(ctx, func(ctx context.Context) error { return s.store.SetRead(ctx, linkID, p.UserID, read) })
}

// BlueprintDomain is a domain as a moderator sends it: a name, a weight
// and the questions it draws from: those listed, and those of a category
// branch and/or carrying tags.
type BlueprintDomain struct {
	Name        string
	Weight      float64
	QuestionIDs []int64
	CategoryID  *int64
	TagIDs      []int64
}

// Blueprint asks for a plan drawn to weights.
type Blueprint struct {
	Title   string
	Shape   string
	Papers  int // papers: how many
	Size    int // papers: questions per paper; domains: questions in all
	Domains []BlueprintDomain
	Seed    *uint64
}

// FromBlueprint draws an unpublished set plan from a blueprint, or refuses
// naming every domain the bank cannot fill and by how many.
func (s *Service) FromBlueprint(ctx context.Context, p auth.Principal, in Blueprint) (*Detail, error) {
	title, err := checkText("title", in.Title, 200, true)
	if err != nil {
		return nil, err
	}
	if len(in.Domains) == 0 { // the schema refuses it too; other callers may not go through it
		return nil, apperr.Invalidf("body.domains", "a blueprint needs at least one domain")
	}
	if in.Shape == ShapeDomains && in.Size < len(in.Domains) {
		return nil, apperr.Invalidf("body.size", "size must be at least the number of domains (%d): every domain gets a block", len(in.Domains))
	}
	if in.Shape == ShapePapers && in.Size > s.cfg.MaxBlockQuestions {
		return nil, apperr.Invalidf("body.size", "a paper holds at most %d questions", s.cfg.MaxBlockQuestions)
	}
	drawn, seed, err := s.draw(ctx, p, in)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Title: title, Kind: "set", CreatedBy: p.UserID,
		Description: fmt.Sprintf("Drawn from a blueprint (%s, seed %d).", in.Shape, seed)}
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.InsertPlan(ctx, plan); err != nil {
			return err
		}
		for _, d := range drawn {
			if err := s.store.InsertBlock(ctx, &Block{PlanID: plan.ID, Title: d.Title, QuestionIDs: d.QuestionIDs}, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, p, plan.ID)
}

// draw checks a blueprint's domains against the live bank (only live
// questions count) and draws it, refusing with every short domain.
func (s *Service) draw(ctx context.Context, p auth.Principal, in Blueprint) ([]Drawn, uint64, error) {
	domains := make([]Domain, len(in.Domains))
	for i, d := range in.Domains {
		name, err := checkText(fmt.Sprintf("domains[%d].name", i), d.Name, 200, true)
		if err != nil {
			return nil, 0, err
		}
		pool, err := s.domainPool(ctx, p, i, d)
		if err != nil {
			return nil, 0, err
		}
		domains[i] = Domain{Name: name, Weight: d.Weight, Pool: pool}
	}
	seed := rand.Uint64()
	if in.Seed != nil {
		seed = *in.Seed
	}
	drawn, short := Draw(in.Shape, domains, in.Papers, in.Size, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
	if len(short) > 0 {
		e := &apperr.Error{Code: apperr.Invalid}
		msgs := make([]string, len(short))
		for i, sh := range short {
			msgs[i] = sh.String()
			e.Fields = append(e.Fields, apperr.Field{Field: fmt.Sprintf("body.domains[%d]", sh.Domain), Message: sh.String(), Type: "shortfall"})
		}
		e.Message = "the bank cannot satisfy the blueprint: " + strings.Join(msgs, "; ")
		return nil, 0, e
	}
	return drawn, seed, nil
}

// domainPool is the live questions a domain draws from, without repeats:
// the listed ones in order, then those of its category branch and tags.
func (s *Service) domainPool(ctx context.Context, p auth.Principal, i int, d BlueprintDomain) ([]int64, error) {
	if len(d.QuestionIDs) == 0 && d.CategoryID == nil && len(d.TagIDs) == 0 {
		return nil, apperr.Invalidf(fmt.Sprintf("body.domains[%d]", i), "a domain draws from question_ids, a category_id or tag_ids: give at least one")
	}
	live, err := s.ports.Bank.QuestionFilings(ctx, d.QuestionIDs)
	if err != nil {
		return nil, err
	}
	pool := make([]int64, 0, len(live))
	seen := map[int64]bool{}
	for _, id := range d.QuestionIDs {
		if _, ok := live[id]; ok && !seen[id] {
			seen[id] = true
			pool = append(pool, id)
		}
	}
	if d.CategoryID == nil && len(d.TagIDs) == 0 {
		return pool, nil
	}
	more, err := s.ports.Bank.DomainQuestions(ctx, p, d.CategoryID, d.TagIDs)
	if err != nil {
		return nil, err
	}
	for _, id := range more {
		if !seen[id] {
			seen[id] = true
			pool = append(pool, id)
		}
	}
	return pool, nil
}
