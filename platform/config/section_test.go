package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// demoSection stands in for a module's own configuration.
type demoSection struct {
	Every   time.Duration `mapstructure:"every" validate:"gt=0"`
	Limit   int           `mapstructure:"limit" validate:"gte=1"`
	Groups  []string      `mapstructure:"groups"`
	APIKey  string        `mapstructure:"api_key" secret:"true"`
	Nested  demoNested    `mapstructure:"nested"`
	Enabled bool          `mapstructure:"enabled"`
}

type demoNested struct {
	URL string `mapstructure:"url" validate:"omitempty,url"`
}

const demoDefaults = `
demo:
  # How often.
  every: 15m
  limit: 10
  groups: []
  api_key: ""
  nested:
    url: ""
  enabled: false
`

func load(t *testing.T, files ...string) *Config {
	t.Helper()
	t.Setenv("ROUNDS_AUTH_TOKEN_SECRET", secret)
	cfg, err := Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestSectionDefaultsFilesEnvAndSet(t *testing.T) {
	f := filepath.Join(t.TempDir(), "deploy.yaml")
	os.WriteFile(f, []byte("demo:\n  limit: 20\n  nested:\n    url: http://x.test\n"), 0o600)
	t.Setenv("ROUNDS_DEMO_EVERY", "2h")
	t.Setenv("ROUNDS_DEMO_GROUPS", "a,b")
	cfg := load(t, f)
	cfg.Set("demo.enabled", true)
	var d demoSection
	if err := cfg.Section("demo", []byte(demoDefaults), &d); err != nil {
		t.Fatal(err)
	}
	if d.Every != 2*time.Hour || d.Limit != 20 || d.Nested.URL != "http://x.test" || !d.Enabled ||
		strings.Join(d.Groups, "|") != "a|b" {
		t.Errorf("layers not applied (defaults < file < env < Set): %+v", d)
	}
	if err := cfg.Check(); err != nil {
		t.Errorf("a claimed section is not unknown: %v", err)
	}
}

func TestSectionDefaultsAloneAndRedacted(t *testing.T) {
	t.Setenv("ROUNDS_DEMO_API_KEY", "sk-hunter2")
	cfg := load(t)
	var d demoSection
	if err := cfg.Section("demo", []byte(demoDefaults), &d); err != nil {
		t.Fatal(err)
	}
	if d.Every != 15*time.Minute || d.Limit != 10 || d.APIKey != "sk-hunter2" {
		t.Errorf("defaults: %+v", d)
	}
	r := Redacted(cfg)
	if r["demo.api_key"] != "****" || r["demo.limit"] != 10 || r["demo.every"] != "15m0s" {
		t.Errorf("module section in the redacted view: %v %v %v", r["demo.api_key"], r["demo.limit"], r["demo.every"])
	}
}

func TestSectionRefusals(t *testing.T) {
	t.Run("unknown key in a file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "typo.yaml")
		os.WriteFile(f, []byte("demo:\n  limt: 3\n"), 0o600)
		cfg := load(t, f)
		var d demoSection
		err := cfg.Section("demo", []byte(demoDefaults), &d)
		if err == nil || !strings.Contains(err.Error(), "limt") {
			t.Fatalf("want an error naming limt, got %v", err)
		}
	})
	t.Run("invalid value names the key and its variable, secrets masked", func(t *testing.T) {
		t.Setenv("ROUNDS_DEMO_LIMIT", "0")
		t.Setenv("ROUNDS_DEMO_NESTED_URL", "not a url")
		cfg := load(t)
		var d demoSection
		err := cfg.Section("demo", []byte(demoDefaults), &d)
		if err == nil || !strings.Contains(err.Error(), "demo.limit (env ROUNDS_DEMO_LIMIT)") ||
			!strings.Contains(err.Error(), "demo.nested.url") {
			t.Fatalf("want an error naming demo.limit and demo.nested.url, got %v", err)
		}
	})
	t.Run("a section nobody claims", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "extra.yaml")
		os.WriteFile(f, []byte("serach:\n  x: 1\n"), 0o600)
		cfg := load(t, f)
		if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), "serach") {
			t.Fatalf("want an error naming serach, got %v", err)
		}
	})
	t.Run("a platform section", func(t *testing.T) {
		cfg := load(t)
		var d demoSection
		if err := cfg.Section("http", []byte("http:\n  x: 1\n"), &d); err == nil {
			t.Fatal("a module cannot claim the platform's http section")
		}
	})
	t.Run("defaults without the section", func(t *testing.T) {
		cfg := load(t)
		var d demoSection
		if err := cfg.Section("demo", []byte("other:\n  x: 1\n"), &d); err == nil {
			t.Fatal("defaults must hold the section they configure")
		}
	})
}
