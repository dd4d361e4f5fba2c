package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/roundsedu/rounds/platform/apperr"
	"github.com/roundsedu/rounds/platform/auth"
)

// Prefix is where every operation is declared; /api/... is rewritten to it.
const Prefix = "/api/v1"

// Router is what a module registers its operations on.
type Router struct {
	api      huma.API
	verifier *auth.Verifier
	log      *slog.Logger
	cookie   string
	// mediaVerifier checks the media cookie's value (see MediaGuard).
	mediaVerifier *auth.Verifier
	// secrets are the routes whose path holds a credential.
	secrets *secretPaths
	// uploadTimeout bounds reading an upload's body (Options.UploadTimeout).
	uploadTimeout time.Duration
}

// API exposes the huma API for the rare operation that needs raw access
// (streaming bodies). Prefer Register.
func (r *Router) API() huma.API { return r.api }

// Op is an operation with the fields most routes set.
func Op(method, path, tag, summary string, status int, errs ...int) huma.Operation {
	return huma.Operation{Method: method, Path: path, Tags: []string{tag}, Summary: summary,
		DefaultStatus: status, Errors: errs}
}

// Described is op with a longer description for the contract's reader (the
// rules a caller meets beyond the summary).
func Described(op huma.Operation, description string) huma.Operation {
	op.Description = description
	return op
}

// Register declares one operation at /api/v1<op.Path> under the given access
// level. The level is enforced before the handler runs (401 without a valid
// token, 403 for a role below it), shown in the OpenAPI document as the
// operation's security, and the principal is on the handler's context
// (auth.From). op.Tags must name one of the spec's tag groups.
func Register[I, O any](r *Router, level auth.Level, op huma.Operation, handler func(context.Context, *I) (*O, error)) {
	op.Path = Prefix + op.Path
	r.secrets.add(op.Path)
	if _, raw := reflect.TypeFor[I]().FieldByName("RawBody"); raw && op.BodyReadTimeout == 0 {
		// An upload read whole by huma (a package, a recording): the
		// upload's time to arrive, not the server's read timeout.
		op.BodyReadTimeout = r.uploadTimeout
	}
	declareTags(r.api.OpenAPI(), op)
	if op.OperationID == "" {
		op.OperationID = operationID(op.Method, op.Path)
	}
	if level != auth.Public {
		op.Security = []map[string][]string{{"bearer": {}}}
		op.Middlewares = append(huma.Middlewares{r.guard(level, acceptsMediaCookie(op))}, op.Middlewares...)
		op.Errors = appendStatus(op.Errors, http.StatusUnauthorized)
		if level != auth.User {
			op.Errors = appendStatus(op.Errors, http.StatusForbidden)
		}
	}
	op.Errors = append(op.Errors, edgeStatuses[I]()...)
	log := r.log
	declared := map[int]bool{} // filled from the document once huma has added the operation
	huma.Register(r.api, op, func(ctx context.Context, in *I) (*O, error) {
		if ae := refuseNUL(in); ae != nil {
			return nil, fromAppErr(ae)
		}
		out, err := handler(ctx, in)
		if err != nil {
			err = toEnvelope(ctx, log, err)
			checkDeclared(ctx, log, op.OperationID, declared, err)
			return nil, err
		}
		return out, nil
	})
	for code := range documented(r.api.OpenAPI(), op.Method, op.Path) {
		declared[code] = true
	}
}

// itemsRequiredOnAdd is huma's hook on each operation added to the
// document (New installs it): every array of the operation's JSON body that
// must hold an item (minItems) then refuses null, as it refuses a missing
// or empty one. huma declares every array nullable (a nil slice encodes as
// null) and lets a null skip the array's checks, so a null reached
// services that counted on an item (a 500 the contract fuzzer found). The
// schemas are the registry's own, which huma's validation reads on every
// request.
func itemsRequiredOnAdd(doc *huma.OpenAPI, op *huma.Operation) {
	if op.RequestBody == nil || op.RequestBody.Content["application/json"] == nil {
		return
	}
	refuseNullForItems(doc.Components.Schemas, op.RequestBody.Content["application/json"].Schema, map[*huma.Schema]bool{})
}

func refuseNullForItems(reg huma.Registry, s *huma.Schema, seen map[*huma.Schema]bool) {
	if s != nil && s.Ref != "" {
		s = reg.SchemaFromRef(s.Ref)
	}
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Type == huma.TypeArray && s.MinItems != nil && *s.MinItems > 0 {
		s.Nullable = false
	}
	refuseNullForItems(reg, s.Items, seen)
	for _, p := range s.Properties {
		refuseNullForItems(reg, p, seen)
	}
	for _, group := range [][]*huma.Schema{s.OneOf, s.AnyOf, s.AllOf} {
		for _, sub := range group {
			refuseNullForItems(reg, sub, seen)
		}
	}
}

// declareTags lists the operation's tag groups in the document, so the
// document names exactly the groups that have operations (a group of the
// spec whose module has not landed is absent rather than empty). A tag
// outside the spec's groups is a programming error.
func declareTags(doc *huma.OpenAPI, op huma.Operation) {
	for _, t := range op.Tags {
		if !slices.Contains(Tags, t) {
			panic(fmt.Sprintf("httpapi: %s %s: tag %q is not one of the spec's groups %v", op.Method, op.Path, t, Tags))
		}
		if slices.ContainsFunc(doc.Tags, func(d *huma.Tag) bool { return d.Name == t }) {
			continue
		}
		doc.Tags = append(doc.Tags, &huma.Tag{Name: t})
		slices.SortFunc(doc.Tags, func(a, b *huma.Tag) int { return strings.Compare(a.Name, b.Name) })
	}
}

// EnvelopeOf is the envelope of a service error for a handler that is
// already streaming its answer and reports the error in the stream.
func EnvelopeOf(err error) *Envelope {
	if ae, ok := known(err); ok {
		return fromAppErr(ae)
	}
	return fromAppErr(&apperr.Error{Code: apperr.ServerError, Message: "internal server error"})
}

// toEnvelope turns a handler's error into the envelope, logging the ones the
// caller cannot act on.
func toEnvelope(ctx context.Context, log *slog.Logger, err error) error {
	if ae, ok := known(err); ok {
		return fromAppErr(ae)
	}
	var se huma.StatusError
	if errors.As(err, &se) {
		return err
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		// The client went away; nobody reads this response.
		return fromAppErr(&apperr.Error{Code: apperr.BadRequest, Message: "request cancelled", Status: 499})
	}
	log.ErrorContext(ctx, "unhandled error", "error", err, "request_id", RequestID(ctx))
	return fromAppErr(&apperr.Error{Code: apperr.ServerError, Message: "internal server error"})
}

// operationID derives a stable id from method and path:
// GET /api/v1/quizzes/{quiz_id}/review -> get-quizzes-by-quiz-id-review.
func operationID(method, path string) string {
	parts := []string{strings.ToLower(method)}
	for _, seg := range strings.Split(strings.TrimPrefix(path, Prefix), "/") {
		if seg == "" {
			continue
		}
		if strings.HasPrefix(seg, "{") {
			seg = "by-" + strings.Trim(seg, "{}")
		}
		parts = append(parts, strings.ReplaceAll(seg, "_", "-"))
	}
	return strings.Join(parts, "-")
}

func appendStatus(list []int, status int) []int {
	for _, s := range list {
		if s == status {
			return list
		}
	}
	return append(list, status)
}

// guard authenticates the caller of an operation and checks the role.
func (r *Router) guard(level auth.Level, mediaCookie bool) func(huma.Context, func(huma.Context)) {
	return func(hctx huma.Context, next func(huma.Context)) {
		ctx, ae := r.authenticate(hctx.Context(), hctx.Header("Authorization"), hctx.Header("Cookie"), mediaCookie, level)
		if ae != nil {
			r.deny(hctx, ae)
			return
		}
		next(huma.WithContext(hctx, ctx))
	}
}

// authenticate resolves the caller from the bearer token or, where the route
// accepts it and no token is sent, the media cookie; checks the level; and
// returns ctx carrying the principal. Operations (guard) and raw routes
// (MediaGuard) share it.
func (r *Router) authenticate(ctx context.Context, authorization, cookies string, mediaCookie bool, level auth.Level) (context.Context, *apperr.Error) {
	verifier, token := r.verifier, bearer(authorization)
	missing := "sign in first: missing bearer token"
	if token == "" && mediaCookie {
		verifier, token = r.mediaVerifier, r.mediaCookieValue(cookies)
		missing = "sign in first: missing bearer token or media cookie"
	}
	if token == "" {
		return nil, apperr.New(apperr.Unauthenticated, "%s", missing)
	}
	p, err := verifier.Verify(ctx, token)
	if err != nil {
		ae, ok := known(err)
		if !ok {
			r.log.ErrorContext(ctx, "token verification failed", "error", err)
			ae = apperr.New(apperr.ServerError, "internal server error")
		}
		return nil, ae
	}
	if !level.Allows(p) {
		return nil, apperr.Forbiddenf("this action needs the %s role", level)
	}
	ctx = auth.WithPrincipal(ctx, p)
	if info := requestInfo(ctx); info != nil {
		info.userID = p.UserID
	}
	return ctx, nil
}

func (r *Router) deny(hctx huma.Context, ae *apperr.Error) {
	env := fromAppErr(ae)
	if env.status == http.StatusUnauthorized {
		hctx.SetHeader("WWW-Authenticate", `Bearer realm="api"`)
	}
	// huma.WriteErr writes the body only; the envelope's headers (Retry-After) go first.
	for k, vs := range env.headers {
		for _, v := range vs {
			hctx.AppendHeader(k, v)
		}
	}
	_ = huma.WriteErr(r.api, hctx, env.status, ae.Message, ae)
}

func bearer(h string) string {
	const p = "bearer "
	if len(h) > len(p) && strings.EqualFold(h[:len(p)], p) {
		return strings.TrimSpace(h[len(p):])
	}
	return ""
}
