package identity

import (
	"context"
	"errors"
	"time"

	"github.com/roundsedu/rounds/platform/auth"
)

// GrantKind names what an editorial grant reaches. Grants carry edit only:
// never create, delete or publish.
type GrantKind string

// The four kinds of grant.
const (
	// GrantCategory reaches questions and articles filed under a question
	// category and all its descendants (coverage decided by bank, which owns
	// the tree).
	GrantCategory GrantKind = "category"
	// GrantDeck names one flashcard deck (Scope "deck") or a category branch
	// of decks (Scope "category"), evaluated against the tree at check time.
	GrantDeck GrantKind = "deck"
	// GrantQuiz reaches every question linked to one quiz (a guest author
	// polishing one paper).
	GrantQuiz GrantKind = "quiz"
	// GrantArticle reaches one article and its figures (a reviewer fixing
	// one topic).
	GrantArticle GrantKind = "article"
)

// Scopes of a deck grant.
const (
	ScopeDeck     = "deck"
	ScopeCategory = "category"
)

// Grant is one editorial grant held by a user.
type Grant struct {
	ID       int64
	UserID   int64
	Kind     GrantKind
	TargetID int64
	// Scope is set for deck grants only: ScopeDeck or ScopeCategory.
	Scope     string
	GrantedBy int64
	CreatedAt time.Time
}

// UserInfo is what other modules may know of a person.
type UserInfo struct {
	ID                int64
	Email             string
	Name              string
	Role              string
	RemindersDisabled bool
}

// ErrUserNotFound is returned by Facade.User for an id with no account.
var ErrUserNotFound = errors.New("identity: user not found")

// Facade is what other modules may ask identity.
type Facade interface {
	// Grants lists the user's grants (empty for none).
	Grants(ctx context.Context, userID int64) ([]Grant, error)
	// User reads one user; ErrUserNotFound when there is none.
	User(ctx context.Context, userID int64) (UserInfo, error)
	// Users reads many users at once (missing ids are left out), so a list
	// showing authors costs one query.
	Users(ctx context.Context, userIDs []int64) (map[int64]UserInfo, error)
	// GiveGrant gives a learner a grant as actor, by the rules of
	// POST /access/{user_id}/grants, for a module managing its own kind
	// (flashcards' deck grants); the module checks the target exists.
	GiveGrant(ctx context.Context, actor auth.Principal, userID int64, kind GrantKind, targetID int64, scope string) (Grant, error)
	// RevokeGrant removes one of the user's grants (404 if none).
	RevokeGrant(ctx context.Context, userID, grantID int64) error
}

// Held is what a person's grants reach: the targets of each kind.
type Held map[GrantKind][]int64

// HeldBy reads p's grants by kind, through any source that lists them (the
// Facade, or a module's narrower port). A moderator's is empty: they need
// none, and the read is skipped.
func HeldBy(ctx context.Context, src interface {
	Grants(ctx context.Context, userID int64) ([]Grant, error)
}, p auth.Principal) (Held, error) {
	held := Held{}
	if p.IsModerator() {
		return held, nil
	}
	grants, err := src.Grants(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	for _, g := range grants {
		held[g.Kind] = append(held[g.Kind], g.TargetID)
	}
	return held, nil
}
