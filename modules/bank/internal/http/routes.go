package http

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc *app.Service
	// bodies answers the hot quiz read from its cached encoding.
	bodies *quizBodies
}

// Register declares every bank operation.
func Register(r *httpapi.Router, s *app.Service) {
	h := &handlers{svc: s, bodies: newQuizBodies(s)}
	questionRoutes(r, h)
	bankRoutes(r, h)
	quizRoutes(r, h)
	quizQuestionRoutes(r, h)
	quizLifecycleRoutes(r, h)
	categoryRoutes(r, h)
	questionCategoryRoutes(r, h)
	tagRoutes(r, h)
	favoriteRoutes(r, h)
	snapshotRoutes(r, h)
	savedTestRoutes(r, h)
	customBlockRoutes(r, h)
}

func bankRoutes(r *httpapi.Router, h *handlers) {
	const tag = "questions"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/questions/bank", tag,
		"List the bank: moderators see all; others what their grants cover and their favourites", 0), h.bank)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/questions/bank/ids", tag,
		"Every id the bank listing would show for these filters (keyword text matching)", 0), h.bankIDs)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/questions/{id}/category", tag,
		"File a question under a question category, or none (moderators)", 0), h.fileQuestion)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/questions/bulk-category", tag,
		"File many questions at once (moderators)", 0, http.StatusNotFound), h.fileQuestions)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/questions/from-bank", tag,
		"Make a quiz from bank questions (moderators; starts unpublished)", http.StatusCreated), h.quizFromBank)
}

func categoryRoutes(r *httpapi.Router, h *handlers) {
	const tag = "categories"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/categories/", tag,
		"Quiz categories with the number of quizzes the caller can see in each", 0), h.quizCategories)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/categories/", tag,
		"Add a quiz category (moderators)", http.StatusCreated, http.StatusConflict), h.createQuizCategory)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/categories/{category_id}", tag,
		"Remove a quiz category; its quizzes become unassigned (moderators)",
		http.StatusNoContent), h.deleteQuizCategory)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/categories/quizzes/{quiz_id}", tag,
		"File a quiz under a quiz category, or none (moderators)", 0), h.setQuizCategory)
}

func questionCategoryRoutes(r *httpapi.Router, h *handlers) {
	const tag = "question-categories"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/question-categories/", tag,
		"The question-category tree (build it from parent_id) with live-question counts", 0), h.questionCategories)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/question-categories/", tag,
		"Add a question category (moderators)", http.StatusCreated, http.StatusConflict), h.createQuestionCategory)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/question-categories/{cat_id}", tag,
		"Rename, describe, move or re-system a question category (moderators)",
		0, http.StatusBadRequest, http.StatusConflict), h.patchQuestionCategory)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/question-categories/{cat_id}", tag,
		"Remove a question category: questions go to move_to (or nowhere), subcategories up a level (moderators)",
		http.StatusNoContent, http.StatusBadRequest), h.deleteQuestionCategory)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/question-categories/{cat_id}/create-quiz", tag,
		"Make a quiz of every live question in a category's branch (moderators; starts unpublished)",
		http.StatusCreated, http.StatusBadRequest), h.quizFromCategory)
}

// customBlockRoutes are issue 38's "create test": a learner's block drawn
// from what they reach, by category and by their own history.
func customBlockRoutes(r *httpapi.Router, h *handlers) {
	const tag = "quizzes"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/saved-tests/custom", tag,
		"Build a block of your own: N questions you reach, by category and unused / incorrect / flagged",
		http.StatusCreated, http.StatusConflict), h.buildCustomBlock)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/saved-tests/custom/counts", tag,
		"How many questions you reach are unused, incorrect and flagged (in the categories given)",
		0), h.customBlockCounts)
}

func favoriteRoutes(r *httpapi.Router, h *handlers) {
	const tag = "favorites"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/favorites", tag,
		"Mark a question as a favourite (idempotent)", http.StatusCreated, http.StatusNotFound), h.addFavorite)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodDelete, "/favorites/{question_id}", tag,
		"Unmark a favourite (idempotent)", http.StatusNoContent), h.removeFavorite)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/favorites", tag,
		"The caller's favourite question ids, newest first", 0), h.favorites)
}

func questionRoutes(r *httpapi.Router, h *handlers) {
	const tag = "questions"
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/questions/create", tag,
		"Create a bank question (moderators)", http.StatusCreated), h.createQuestion)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/questions/detail/{id}", tag,
		"A question: stem for anyone, answer side for editors or inside an authorised attempt",
		0, http.StatusForbidden), h.question)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPatch, "/questions/{id}", tag,
		"Edit a question (moderators or a covering grant); the prior state is snapshotted first",
		0, http.StatusForbidden, http.StatusConflict), h.patchQuestion)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/questions/detail/{id}/versions", tag,
		"A question's versions, newest first (those who may edit it)", 0, http.StatusForbidden), h.questionVersions)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/questions/detail/{question_id}/versions/{version_id}/restore", tag,
		"Put a version back (those who may edit it); the current state is snapshotted first",
		0, http.StatusForbidden, http.StatusConflict), h.restoreVersion)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/questions/{id}", tag,
		"Move a question to the trash (moderators)", http.StatusNoContent), h.trashQuestion)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/questions/trash", tag,
		"Trashed questions, most recently trashed first (moderators)", 0), h.questionTrash)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/questions/{id}/restore", tag,
		"Bring a question back from the trash (moderators)", 0, http.StatusBadRequest), h.restoreQuestion)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/questions/{id}/permanent", tag,
		"Remove a trashed question for good (moderators)",
		http.StatusNoContent, http.StatusBadRequest), h.purgeQuestion)
}

func quizRoutes(r *httpapi.Router, h *handlers) {
	const tag = "quizzes"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/quizzes/", tag,
		"Quizzes, newest first: moderators see every live quiz, others the published ones", 0), h.quizzes)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/quizzes/search", tag,
		"Find quizzes by title and/or by their questions", 0), h.searchQuizzes)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/quizzes/trash", tag,
		"Trashed quizzes, most recently trashed first (moderators)", 0), h.quizTrash)
	// The hot read: answered as bytes (the cached question list), declared
	// as QuizDetailBody like the shuffle and the review.
	httpapi.RegisterEncoded[getQuizInput, QuizDetailBody](r, auth.User, httpapi.Op(http.MethodGet, "/quizzes/{quiz_id}", tag,
		"A quiz: timed hides answers, learning shows them, study=true forces them in", 0), h.quiz)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/quizzes/{quiz_id}", tag,
		"Rename a quiz (moderators)", 0), h.renameQuiz)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/quizzes/{quiz_id}/shuffle", tag,
		"The timed detail in a fresh random order; nothing is stored", 0), h.shuffleQuiz)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/quizzes/{quiz_id}/review", tag,
		"Every answer and explanation: moderators, or learners with a completed attempt",
		0, http.StatusForbidden), h.reviewQuiz)
}

func quizQuestionRoutes(r *httpapi.Router, h *handlers) {
	const tag = "quizzes"
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/quizzes/{quiz_id}/questions", tag,
		"A quiz's questions with answers (moderators)", 0), h.quizQuestions)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/quizzes/{quiz_id}/questions/{question_id}", tag,
		"Edit a quiz's question (moderators); shared by every quiz using it; 400 if the answer is not an option",
		0, http.StatusBadRequest), h.patchQuizQuestion)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/quizzes/{quiz_id}/questions/{question_id}", tag,
		"Take a question out of a quiz: only the link when shared, else the question goes to the trash (moderators)",
		http.StatusNoContent), h.removeQuizQuestion)
}

func quizLifecycleRoutes(r *httpapi.Router, h *handlers) {
	const tag = "quizzes"
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/quizzes/{quiz_id}/publish", tag,
		"Publish or unpublish a quiz (moderators)", 0), h.publishQuiz)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/quizzes/{quiz_id}", tag,
		"Move a quiz to the trash (moderators)", http.StatusNoContent), h.trashQuiz)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/quizzes/{quiz_id}/restore", tag,
		"Bring a quiz back from the trash (moderators)", 0, http.StatusBadRequest), h.restoreQuiz)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/quizzes/{quiz_id}/permanent", tag,
		"Remove a trashed quiz for good; questions only it used stay in the bank (moderators)",
		http.StatusNoContent, http.StatusBadRequest), h.purgeQuiz)
}

// savedTestRoutes let any signed-in user build a test of their own
// (issue 21); the rules live in app.BuildSavedTest.
func savedTestRoutes(r *httpapi.Router, h *handlers) {
	const tag = "quizzes"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/saved-tests", tag,
		"Build a test of your own from bank questions open to you (unpublished; only you sit it)",
		http.StatusCreated, http.StatusConflict), h.buildSavedTest)
}

func snapshotRoutes(r *httpapi.Router, h *handlers) {
	const tag = "admin"
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodGet, "/admin/classification-snapshots", tag,
		"Classification snapshots, newest first (one before each classification run and each rollback)",
		0), h.classificationSnapshots)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodPost, "/admin/classification-snapshots/{snapshot_id}/rollback", tag,
		"Restore a snapshot's question tags exactly, snapshotting the current ones first", 0), h.rollbackClassification)
}

func tagRoutes(r *httpapi.Router, h *handlers) {
	const tag = "tags"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/tags", tag,
		"Tags grouped by type with live-question counts", 0), h.tags)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/tags/classify", tag,
		"Start tagging the bank's live questions with the keyword model, or the rule-based tagger without one (moderators); poll /tags/status/{job_id}",
		http.StatusAccepted, http.StatusServiceUnavailable), h.startClassify)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/tags/status/{job_id}", tag,
		"Status, steps and result of a classification job", 0), h.classifyStatus)
}
