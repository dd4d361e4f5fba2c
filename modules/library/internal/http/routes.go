// Package http is the library's HTTP surface: articles, their revisions,
// slugs and previews, the bin, and the listings.
package http

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/library/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct {
	svc *app.Service
}

// Register declares the library's operations. Every path parameter naming
// an article is {id}: the router refuses two names for one position.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	readRoutes(r, h)
	writeRoutes(r, h)
	binRoutes(r, h)
	revisionRoutes(r, h)
	aiRoutes(r, h)
	glossaryRoutes(r, h)
}

func readRoutes(r *httpapi.Router, h *handlers) {
	const tag = "articles"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/", tag,
		"The published library, or (editable=true) the articles you may edit, drafts included", 0), h.listArticles)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/link-targets", tag,
		"Articles with their sections for the cross-reference picker: published ones and the drafts you may edit (moderators and grant holders)",
		0, http.StatusForbidden), h.linkTargets)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/recent", tag,
		"The articles you opened most recently, newest first", 0), h.recentArticles)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/by-slug/{slug}", tag,
		"Open an article by its current or a former slug (the answer carries the current one)",
		0, http.StatusNotFound), h.articleBySlug)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/preview/{slug}", tag,
		"A cross-reference's hover card: title, summary, the first section's opening, category",
		0, http.StatusNotFound), h.preview)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/{id}", tag,
		"Open an article (recorded in your recent list)", 0, http.StatusNotFound), h.getArticle)
}

func writeRoutes(r *httpapi.Router, h *handlers) {
	const tag = "articles"
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/articles/", tag,
		"Write a new article (moderators); cross-references are checked and broken ones listed",
		http.StatusCreated, http.StatusConflict), h.createArticle)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPatch, "/articles/{id}", tag,
		"Edit an article (moderators and holders of a covering grant); the article as it was is kept as a revision first",
		0, http.StatusForbidden, http.StatusNotFound, http.StatusConflict), h.patchArticle)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPut, "/articles/{id}/status", tag,
		"Move an article to another status (moderators): draft→review|published, review→draft|published, published→archived, archived→draft|published",
		0, http.StatusNotFound, http.StatusConflict), h.setStatus)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/articles/{id}", tag,
		"Delete an article (moderators): one ever published goes to the bin, one never published is removed outright",
		0, http.StatusNotFound, http.StatusConflict), h.deleteArticle)
}

func binRoutes(r *httpapi.Router, h *handlers) {
	const tag = "articles"
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodGet, "/articles/trash", tag,
		"The bin: deleted articles that had been published, most recently binned first (moderators)", 0), h.trash)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/articles/{id}/restore", tag,
		"Take an article out of the bin in the status it went in with (moderators)",
		0, http.StatusBadRequest, http.StatusNotFound), h.restoreArticle)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/articles/trash/{id}", tag,
		"Remove a binned article for good (moderators)",
		http.StatusNoContent, http.StatusBadRequest, http.StatusNotFound), h.purgeArticle)
}

func revisionRoutes(r *httpapi.Router, h *handlers) {
	const tag = "articles"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/{id}/revisions", tag,
		"An article's revisions, newest first (its editors)",
		0, http.StatusForbidden, http.StatusNotFound), h.revisions)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/{id}/revisions/{revision_id}", tag,
		"One revision: the article as it was before a change (its editors)",
		0, http.StatusForbidden, http.StatusNotFound), h.revision)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/articles/{id}/revisions/{revision_id}/restore", tag,
		"Put a revision's content back (moderators); the current state is kept first as a revision",
		0, http.StatusNotFound, http.StatusConflict), h.restoreRevision)
}

func aiRoutes(r *httpapi.Router, h *handlers) {
	const tag = "articles"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/ai-sources", tag,
		"Which grounding sources an article generation can be offered", 0), h.aiSources)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/articles/ai-draft", tag,
		"Queue the generation of a new article draft (moderators); poll the job",
		http.StatusAccepted, http.StatusServiceUnavailable), h.aiDraft)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/articles/{id}/ai-refine", tag,
		"Queue a refinement of an article or one section (its editors); poll the job",
		http.StatusAccepted, http.StatusForbidden, http.StatusNotFound, http.StatusServiceUnavailable), h.aiRefine)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/articles/{id}/ai-cards", tag,
		"Queue the generation of flashcards from an article (moderators); poll the job",
		http.StatusAccepted, http.StatusNotFound, http.StatusServiceUnavailable), h.aiCards)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/articles/jobs/{job_id}", tag,
		"One of your article generation jobs with its progress steps", 0, http.StatusNotFound), h.generationJob)
}

func glossaryRoutes(r *httpapi.Router, h *handlers) {
	const tag = "glossary"
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodGet, "/glossary/", tag,
		"The glossary, alphabetically; q searches terms and definitions", 0), h.terms)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPost, "/glossary/", tag,
		"Add a term (moderators)", http.StatusCreated, http.StatusConflict), h.createTerm)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodPatch, "/glossary/{term_id}", tag,
		"Edit a term (moderators); article_id null unlinks it",
		0, http.StatusNotFound, http.StatusConflict), h.patchTerm)
	httpapi.Register(r, auth.Mod, httpapi.Op(http.MethodDelete, "/glossary/{term_id}", tag,
		"Remove a term (moderators)", http.StatusNoContent, http.StatusNotFound), h.deleteTerm)
	httpapi.Register(r, auth.User, httpapi.Op(http.MethodPost, "/glossary/annotate", tag,
		"The glossary's terms found in a text (a question or an article), for hover definitions", 0), h.annotate)
}
