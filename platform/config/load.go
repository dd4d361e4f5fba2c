package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"

	defaults "github.com/roundsedu/rounds/config"
)

// EnvPrefix prefixes every environment override.
const EnvPrefix = "ROUNDS"

// Load reads the configuration (Read) and validates it.
func Load(files ...string) (*Config, error) {
	cfg, err := Read(files...)
	if err != nil {
		return nil, err
	}
	if err := Validate(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// Read reads the default file, the extra files (in order, later wins) and the
// environment, without validating. Extra files may also come from
// ROUNDS_CONFIG (comma-separated), read after the ones passed here.
func Read(files ...string) (*Config, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(defaults.Default)); err != nil {
		return nil, fmt.Errorf("config: default.yaml: %w", err)
	}
	if env := os.Getenv(EnvPrefix + "_CONFIG"); env != "" {
		files = append(files, strings.Split(env, ",")...)
	}
	for _, f := range files {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		if err := v.MergeConfig(bytes.NewReader(b)); err != nil {
			return nil, fmt.Errorf("config: %s: %w", f, err)
		}
	}

	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	if err := v.BindEnv("database.url", EnvPrefix+"_DATABASE_URL", "DATABASE_URL"); err != nil {
		return nil, err
	}

	var cfg Config
	err := v.UnmarshalExact(&cfg, viper.DecodeHook(mapstructure.ComposeDecodeHookFunc(
		mapstructure.StringToTimeDurationHookFunc(),
		mapstructure.StringToSliceHookFunc(","),
	)))
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return &cfg, nil
}

var validate = func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	// Report keys as they are written in YAML, not as Go field names.
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		return f.Tag.Get("mapstructure")
	})
	return v
}()

// Validate checks every section and names the offending keys.
func Validate(cfg *Config) error {
	err := validate.Struct(cfg)
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return err
	}
	msgs := make([]string, 0, len(verrs))
	for _, fe := range verrs {
		key := strings.TrimPrefix(fe.Namespace(), "Config.")
		rule := fe.Tag()
		if fe.Param() != "" {
			rule += "=" + fe.Param()
		}
		msgs = append(msgs, fmt.Sprintf("%s (env %s): value %q fails %s",
			key, EnvName(key), redactValue(fe), rule))
	}
	return fmt.Errorf("config: invalid values:\n  %s", strings.Join(msgs, "\n  "))
}

// EnvName is the environment variable that overrides a dotted key.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

func redactValue(fe validator.FieldError) string {
	if secretKeys[strings.TrimPrefix(fe.Namespace(), "Config.")] {
		return "****"
	}
	return fmt.Sprint(fe.Value())
}
