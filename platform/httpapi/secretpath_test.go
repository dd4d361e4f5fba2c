package httpapi

import "testing"

func TestSecretPathsRedactTheTokenWhateverFollows(t *testing.T) {
	s := &secretPaths{}
	s.add("/api/v1/share/open/{token}")
	s.add("/api/v1/quizzes/{quiz_id}")
	s.add("/api/v1/things/{thing_id}/keys/{invite_token}")
	for path, want := range map[string]string{
		"/api/v1/share/open/abc123":            "/api/v1/share/open/{token}",
		"/api/v1/share/open/abc123/extra":      "/api/v1/share/open/{token}/extra",
		"/api/v1/share/open/":                  "/api/v1/share/open/{token}",
		"/api/v1/share/links/7":                "/api/v1/share/links/7",
		"/api/v1/quizzes/12":                   "/api/v1/quizzes/12",
		"/api/v1/things/4/keys/s3cr3t":         "/api/v1/things/4/keys/{invite_token}",
		"/api/v1/share/open":                   "/api/v1/share/open",
		"/uploads/questions/1/share/open/abc1": "/uploads/questions/1/share/open/abc1",
	} {
		if got := s.redact(path); got != want {
			t.Errorf("redact(%q) = %q, want %q", path, got, want)
		}
	}
}
