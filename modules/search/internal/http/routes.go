package searchhttp

import (
	"net/http"

	"github.com/roundsedu/rounds/modules/search/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/httpapi"
)

type handlers struct{ svc *app.Service }

// Register declares every route of the module.
func Register(r *httpapi.Router, svc *app.Service) {
	h := &handlers{svc: svc}
	searchRoutes(r, h)
	adminRoutes(r, h)
}

func searchRoutes(r *httpapi.Router, h *handlers) {
	const tag = "search"
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodGet, "/search", tag,
		"Search every kind at once", 0),
		"Hybrid search (keyword and vector rankers fused by reciprocal rank fusion) across the "+
			"asked kinds, with one section per kind in the order asked. Question and article sections are "+
			"reranked when a rerank model is set; deck and media sections are not. Only live items the caller "+
			"may reach are found, and answer-side text (explanations) is matched only for items the caller may edit."),
		h.global)
	httpapi.Register(r, auth.User, httpapi.Described(httpapi.Op(http.MethodGet, "/search/suggest", tag,
		"Typeahead suggestions", 0),
		"Prefix match on the full-text index (every typed word but the last whole, the last as a "+
			"prefix) over titles and bodies, never answer-side text; only items the caller may reach. No "+
			"embedding and no rerank, so it stays fast."),
		h.suggest)
}

func adminRoutes(r *httpapi.Router, h *handlers) {
	const tag = "admin"
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodGet, "/admin/embedding/health", tag,
		"Embedding coverage: how much of the index has a vector of the current model", 0), h.health)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodPost, "/admin/embedding/test", tag,
		"Embed probe texts with the embedder in use and check that related texts land closer", 0,
		http.StatusBadGateway), h.testEmbedding)
	httpapi.Register(r, auth.Admin, httpapi.Described(httpapi.Op(http.MethodPost, "/admin/embedding/regenerate", tag,
		"Re-embed everything as a background job (regenerate_embeddings); search stays usable", http.StatusAccepted,
		http.StatusConflict, http.StatusBadGateway, http.StatusServiceUnavailable),
		"With a model other than embedding_model, the model is first checked (502 when it fails, "+
			"nothing changed), then becomes embedding_model and every item is re-embedded with it: this is "+
			"how the embedding model changes once set."),
		h.regenerate)
	httpapi.Register(r, auth.Admin, httpapi.Op(http.MethodPost, "/admin/rerank/test", tag,
		"Check that the rerank model ranks a relevant document above an irrelevant one", 0,
		http.StatusBadRequest, http.StatusBadGateway), h.testRerank)
}
