package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/roundsedu/rounds/platform/auth"
)

// Client sends requests as one caller.
type Client struct {
	h       *Harness
	token   string
	headers http.Header
	base    string         // another server than the harness's own (At)
	jar     http.CookieJar // WithCookies
}

// Anon is a caller without a token.
func (h *Harness) Anon() *Client { return &Client{h: h, headers: http.Header{}} }

// As is a caller presenting token.
func (h *Harness) As(token string) *Client {
	return &Client{h: h, token: token, headers: http.Header{}}
}

// With returns a copy that also sends the header.
func (c *Client) With(key, value string) *Client {
	cp := &Client{h: c.h, token: c.token, headers: c.headers.Clone(), base: c.base, jar: c.jar}
	cp.headers.Set(key, value)
	return cp
}

// WithCookies returns a copy that keeps the cookies the server sets and
// sends them back, as a browser does (copies made from it share its jar).
func (c *Client) WithCookies() *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{h: c.h, token: c.token, headers: c.headers.Clone(), base: c.base, jar: jar}
}

// At returns a copy that sends to another server (another API process of
// the same deployment, on the same database), e.g. "http://127.0.0.1:1234".
func (c *Client) At(base string) *Client {
	return &Client{h: c.h, token: c.token, headers: c.headers.Clone(), base: base, jar: c.jar}
}

// Response is a finished request.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	Method string
	Path   string
}

// JSON decodes the body into v, failing loudly on a mismatch.
func (r *Response) JSON(v any) { r.decode(v, false) }

// decode decodes the body into v, refusing fields v does not declare when
// exact.
func (r *Response) decode(v any, exact bool) {
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	if exact {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more after the JSON value") // as json.Unmarshal refuses it
	}
	if err != nil {
		panic(fmt.Sprintf("%s %s: decode %T (exact: %t): %v\nbody: %s", r.Method, r.Path, v, exact, err, r.Body))
	}
}

// Body decodes the response into T, usually a type of e2e/support/contract:
// `deck := harness.Body[contract.DeckDetail](res)`.
func Body[T any](r *Response) T {
	var v T
	r.JSON(&v)
	return v
}

// Items is the array a contract type holds as *[]T (every array of the
// contract is optional in Go terms), failing when the server sent null
// where a list, even an empty one, belongs.
func Items[T any](s *[]T) []T {
	if s == nil {
		panic("an array sent as null")
	}
	return *s
}

// Exact is Body refusing any field T does not declare, for a spec that
// asserts a whole body (what an Equal on the decoded map asserted).
func Exact[T any](r *Response) T {
	var v T
	r.decode(&v, true)
	return v
}

// Map decodes a JSON object body.
func (r *Response) Map() map[string]any {
	var m map[string]any
	r.JSON(&m)
	return m
}

// IDOf is the "id" of a decoded JSON object (JSON numbers decode as
// float64); it panics, naming the object, when there is none.
func IDOf(m map[string]any) int64 {
	v, ok := m["id"].(float64)
	if !ok {
		panic(fmt.Sprintf("no numeric id in %v", m))
	}
	return int64(v)
}

// ID is the "id" of a JSON object body; it panics, naming the request and
// the body, when there is none.
func (r *Response) ID() int64 {
	var body struct {
		ID *int64 `json:"id"`
	}
	if json.Unmarshal(r.Body, &body) != nil || body.ID == nil {
		panic(fmt.Sprintf("%s %s: no id in %s", r.Method, r.Path, r.Body))
	}
	return *body.ID
}

// List decodes a JSON array body.
func (r *Response) List() []any {
	var l []any
	r.JSON(&l)
	return l
}

// ErrorCode is error.code of an envelope body.
func (r *Response) ErrorCode() string {
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &env)
	return env.Error.Code
}

// Get, Post, Put, Patch and Delete send JSON (body may be nil).
func (c *Client) Get(path string) *Response             { return c.Do(http.MethodGet, path, nil) }
func (c *Client) Post(path string, body any) *Response  { return c.Do(http.MethodPost, path, body) }
func (c *Client) Put(path string, body any) *Response   { return c.Do(http.MethodPut, path, body) }
func (c *Client) Patch(path string, body any) *Response { return c.Do(http.MethodPatch, path, body) }
func (c *Client) Delete(path string) *Response          { return c.Do(http.MethodDelete, path, nil) }

// Do sends one request. path is relative to the server root ("/api/v1/...");
// body is JSON-encoded unless it is an io.Reader or a []byte.
func (c *Client) Do(method, path string, body any) *Response {
	var rd io.Reader
	contentType := "application/json"
	switch b := body.(type) {
	case nil:
	case io.Reader:
		rd = b
	case []byte:
		rd = bytes.NewReader(b)
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			panic(err)
		}
		rd = bytes.NewReader(data)
	}
	base := c.h.BaseURL
	if c.base != "" {
		base = c.base
	}
	req, err := http.NewRequestWithContext(context.Background(), method, base+path, rd)
	if err != nil {
		panic(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", contentType)
	}
	for k, vs := range c.headers {
		req.Header[k] = vs
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.jar != nil {
		for _, ck := range c.jar.Cookies(req.URL) {
			req.AddCookie(ck)
		}
	}
	res, err := c.h.HTTP.Do(req)
	if err != nil {
		panic(fmt.Sprintf("%s %s: %v", method, path, err))
	}
	if c.jar != nil {
		c.jar.SetCookies(req.URL, res.Cookies())
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		panic(err)
	}
	out := &Response{Status: res.StatusCode, Header: res.Header, Body: data, Method: method, Path: path}
	c.h.checkAnswer(out)
	return out
}

// HaveStatus matches a Response's status and prints the body when it does not.
func HaveStatus(want int) types.GomegaMatcher { return &statusMatcher{want: want} }

type statusMatcher struct{ want int }

func (m *statusMatcher) Match(actual any) (bool, error) {
	r, ok := actual.(*Response)
	if !ok {
		return false, fmt.Errorf("HaveStatus expects *harness.Response, got %T", actual)
	}
	return r.Status == m.want, nil
}

func (m *statusMatcher) FailureMessage(actual any) string {
	r := actual.(*Response)
	return fmt.Sprintf("%s %s: want status %d, got %d\nbody: %s", r.Method, r.Path, m.want, r.Status, format.Object(string(r.Body), 1))
}

func (m *statusMatcher) NegatedFailureMessage(actual any) string {
	r := actual.(*Response)
	return fmt.Sprintf("%s %s: did not want status %d", r.Method, r.Path, m.want)
}

// HaveError matches an envelope with the given status and error code.
func HaveError(status int, code string) types.GomegaMatcher {
	return &errorMatcher{status: status, code: code}
}

type errorMatcher struct {
	status int
	code   string
}

func (m *errorMatcher) Match(actual any) (bool, error) {
	r, ok := actual.(*Response)
	if !ok {
		return false, fmt.Errorf("HaveError expects *harness.Response, got %T", actual)
	}
	var env struct {
		Detail any `json:"detail"`
		Error  *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(r.Body, &env) != nil || env.Error == nil || env.Detail == nil || env.Error.Message == "" {
		return false, nil
	}
	return r.Status == m.status && env.Error.Code == m.code, nil
}

func (m *errorMatcher) FailureMessage(actual any) string {
	r := actual.(*Response)
	return fmt.Sprintf("%s %s: want the envelope with %d %s, got %d\nbody: %s", r.Method, r.Path, m.status, m.code, r.Status, r.Body)
}

func (m *errorMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("did not want %d %s", m.status, m.code)
}

// User is a signed-in test account.
type User struct {
	ID    int64
	Email string
	Role  auth.Role
	Token string
	// Cookies are what the sign-in set (the media cookie).
	Cookies []*http.Cookie
}

// Client is a caller presenting the user's token.
func (u *User) Client(h *Harness) *Client { return h.As(u.Token) }
