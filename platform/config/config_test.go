package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const secret = "0123456789abcdef0123456789abcdef"

func TestDefaultsLoadWithSecret(t *testing.T) {
	t.Setenv("ROUNDS_AUTH_TOKEN_SECRET", secret)
	cfg, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.Addr != ":8080" {
		t.Errorf("http.addr = %q, want :8080", cfg.HTTP.Addr)
	}
	if cfg.Jobs.RescueAfter != time.Minute {
		t.Errorf("jobs.rescue_after = %v", cfg.Jobs.RescueAfter)
	}
}

func TestEnvOverridesAndDatabaseURL(t *testing.T) {
	t.Setenv("ROUNDS_AUTH_TOKEN_SECRET", secret)
	t.Setenv("ROUNDS_HTTP_ADDR", ":9000")
	t.Setenv("ROUNDS_JOBS_RESCUE_AFTER", "90s")
	t.Setenv("DATABASE_URL", "postgres://u:pw@db:5432/x")
	cfg, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.Addr != ":9000" || cfg.Jobs.RescueAfter != 90*time.Second {
		t.Errorf("env not applied: %+v %+v", cfg.HTTP, cfg.Jobs)
	}
	if cfg.Database.URL != "postgres://u:pw@db:5432/x" {
		t.Errorf("DATABASE_URL not applied: %q", cfg.Database.URL)
	}
}

func TestFilesMergeInOrder(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.yaml")
	b := filepath.Join(dir, "b.yaml")
	os.WriteFile(a, []byte("auth:\n  token_secret: "+secret+"\nhttp:\n  addr: ':1'\n"), 0o600)
	os.WriteFile(b, []byte("http:\n  addr: ':2'\n"), 0o600)
	cfg, err := Load(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.Addr != ":2" {
		t.Errorf("later file should win, got %q", cfg.HTTP.Addr)
	}
}

func TestBadValuesNameTheKey(t *testing.T) {
	cases := map[string][2]string{
		"missing secret": {"ROUNDS_AUTH_TOKEN_SECRET", "short"},
		"bad duration":   {"ROUNDS_JOBS_RESCUE_AFTER", "soon"},
		"bad int":        {"ROUNDS_DATABASE_MAX_OPEN_CONNS", "-1"},
		"bad level":      {"ROUNDS_LOG_LEVEL", "loud"},
	}
	want := map[string]string{
		"missing secret": "auth.token_secret",
		"bad duration":   "rescue_after",
		"bad int":        "database.max_open_conns",
		"bad level":      "log.level",
	}
	for name, kv := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("ROUNDS_AUTH_TOKEN_SECRET", secret)
			t.Setenv(kv[0], kv[1])
			_, err := Load()
			if err == nil {
				t.Fatal("expected an error")
			}
			if !strings.Contains(err.Error(), want[name]) {
				t.Errorf("error %q does not name %q", err, want[name])
			}
			if strings.Contains(err.Error(), "short") {
				t.Errorf("error leaks a secret: %q", err)
			}
		})
	}
}

func TestUnknownKeyInFileRefused(t *testing.T) {
	f := filepath.Join(t.TempDir(), "typo.yaml")
	os.WriteFile(f, []byte("http:\n  adr: ':1'\n"), 0o600)
	t.Setenv("ROUNDS_AUTH_TOKEN_SECRET", secret)
	if _, err := Load(f); err == nil || !strings.Contains(err.Error(), "adr") {
		t.Fatalf("want an error naming the unknown key, got %v", err)
	}
}

func TestRedactedMasksSecrets(t *testing.T) {
	t.Setenv("ROUNDS_AUTH_TOKEN_SECRET", secret)
	t.Setenv("DATABASE_URL", "postgres://u:hunter2@db:5432/x?sslmode=disable&password=hunter3")
	t.Setenv("ROUNDS_DATABASE_READ_URL", "postgres://u:hunter4@standby:5432/x?sslmode=disable")
	cfg, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Database.ReadURL != "postgres://u:hunter4@standby:5432/x?sslmode=disable" {
		t.Errorf("ROUNDS_DATABASE_READ_URL not applied: %q", cfg.Database.ReadURL)
	}
	r := Redacted(cfg)
	if r["auth.token_secret"] != "****" {
		t.Errorf("token_secret not masked: %v", r["auth.token_secret"])
	}
	for _, key := range []string{"database.url", "database.read_url"} {
		url := r[key].(string)
		if strings.Contains(url, "hunter") || !strings.Contains(url, "sslmode=disable") {
			t.Errorf("%s badly masked: %s", key, url)
		}
	}
	if r["http.addr"] != ":8080" {
		t.Errorf("plain values must stay: %v", r["http.addr"])
	}
}
