package config

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// devYAML is config/dev.yaml on disk, as `go tool task up` passes it.
func devYAML(t *testing.T) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "config", "dev.yaml")
}

// oidcSection stands in for identity's section: a secret in a module's
// own section is checked as the platform's are.
type oidcSection struct {
	Issuer          string   `mapstructure:"issuer"`
	ClientID        string   `mapstructure:"client_id"`
	ClientSecret    string   `mapstructure:"client_secret" secret:"true"`
	RoleClaim       string   `mapstructure:"role_claim"`
	AdminGroups     []string `mapstructure:"admin_groups"`
	ModeratorGroups []string `mapstructure:"moderator_groups"`
	ClientURL       string   `mapstructure:"client_url"`
}

const oidcDefaults = "oidc:\n  issuer: ''\n  client_id: ''\n  client_secret: ''\n  role_claim: ''\n  admin_groups: []\n  moderator_groups: []\n  client_url: ''\n"

// loadDev reads dev.yaml plus extra YAML and decodes the oidc section.
func loadDev(t *testing.T, extra string) (*Config, error) {
	t.Helper()
	files := []string{devYAML(t)}
	if extra != "" {
		f := filepath.Join(t.TempDir(), "extra.yaml")
		if err := os.WriteFile(f, []byte(extra), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	cfg, err := Load(files...)
	if err != nil {
		return nil, err
	}
	var o oidcSection
	if err := cfg.Section("oidc", []byte(oidcDefaults), &o); err != nil {
		t.Fatal(err)
	}
	return cfg, nil
}

func TestDevYAMLStartsInDevelopment(t *testing.T) {
	cfg, err := loadDev(t, "")
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Development() {
		t.Fatal("dev.yaml is development: the provider is on, on loopback")
	}
	if err := cfg.checkPublishedSecrets(); err != nil {
		t.Fatalf("dev.yaml's own secrets are refused in development: %v", err)
	}
}

func TestPublishedSecretsRefusedOutsideDevelopment(t *testing.T) {
	cfg, err := loadDev(t, "devidp:\n  enabled: false\n")
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.checkPublishedSecrets()
	if err == nil {
		t.Fatal("dev.yaml's secrets accepted with the development provider off")
	}
	for _, want := range []string{"auth.token_secret", "ROUNDS_AUTH_TOKEN_SECRET", "oidc.client_secret", "config/dev.yaml"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if strings.Contains(err.Error(), "dev-only") {
		t.Errorf("the error repeats a secret: %v", err)
	}
	if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), "auth.token_secret") {
		t.Errorf("Check (the boot's) lets the published secret through: %v", err)
	}

	// Secrets of one's own pass; one left published is still named.
	own := "auth:\n  token_secret: " + secret + "\ndevidp:\n  enabled: false\n"
	cfg, err = loadDev(t, own)
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.checkPublishedSecrets()
	if err == nil || strings.Contains(err.Error(), "auth.token_secret") || !strings.Contains(err.Error(), "oidc.client_secret") {
		t.Errorf("want only oidc.client_secret named, got %v", err)
	}
	cfg, err = loadDev(t, own+"oidc:\n  client_secret: mine-not-published\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.checkPublishedSecrets(); err != nil {
		t.Errorf("own secrets refused: %v", err)
	}
}

func TestPublishedSecretsRefusedWithAPublicProvider(t *testing.T) {
	// A provider others can reach is no development machine, even when allowed.
	cfg, err := loadDev(t, "devidp:\n  addr: 0.0.0.0:9998\n  allow_public: true\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.checkPublishedSecrets(); err == nil || !strings.Contains(err.Error(), "auth.token_secret") {
		t.Errorf("published secrets accepted beside a public provider: %v", err)
	}
}

func TestDevIdPRefusedOnAPublicAddress(t *testing.T) {
	for _, addr := range []string{":9998", "0.0.0.0:9998", "[::]:9998", "192.168.1.5:9998", "idp.example.org:9998", "nonsense"} {
		_, err := loadDev(t, "devidp:\n  addr: '"+addr+"'\n")
		if err == nil || !strings.Contains(err.Error(), "devidp.addr") || !strings.Contains(err.Error(), "devidp.allow_public") {
			t.Errorf("addr %q: want a refusal naming devidp.addr and devidp.allow_public, got %v", addr, err)
		}
		if _, err := loadDev(t, "devidp:\n  addr: '"+addr+"'\n  allow_public: true\nauth:\n  token_secret: "+secret+
			"\noidc:\n  client_secret: mine\n"); err != nil && addr != "nonsense" {
			t.Errorf("addr %q with allow_public: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:9998", "[::1]:9998", "localhost:9998", "127.0.0.2:1"} {
		if _, err := loadDev(t, "devidp:\n  addr: '"+addr+"'\n"); err != nil {
			t.Errorf("loopback %q refused: %v", addr, err)
		}
	}
	// Off, the address is not looked at.
	if _, err := loadDev(t, "devidp:\n  enabled: false\n  addr: ':9998'\n"); err != nil {
		t.Errorf("a disabled provider's address refused: %v", err)
	}
}
