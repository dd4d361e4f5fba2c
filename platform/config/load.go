package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"

	defaults "github.com/roundsedu/rounds/config"
)

// EnvPrefix prefixes every environment override.
const EnvPrefix = "ROUNDS"

// Load reads the configuration (Read) and validates the platform's sections.
// Module sections are validated when their module decodes them (Section).
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

	cfg := Config{src: v, sections: map[string]any{}}
	if err := v.UnmarshalExact(&cfg, viper.DecodeHook(decodeHook())); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return &cfg, nil
}

func decodeHook() mapstructure.DecodeHookFunc {
	return mapstructure.ComposeDecodeHookFunc(
		mapstructure.StringToTimeDurationHookFunc(),
		mapstructure.StringToSliceHookFunc(","),
	)
}

// Section decodes the module-owned top-level section name into dst (a
// pointer to the module's config struct) and validates it. defaults is the
// module's documented YAML file holding that section; the deployment's
// files, environment variables (ROUNDS_<SECTION>_<KEY>) and Set override
// it exactly as they override the platform's keys. A key the struct does
// not know is refused, and a failed `validate` rule names the key.
func (c *Config) Section(name string, defaults []byte, dst any) error {
	if _, platform := platformSections[name]; platform {
		return fmt.Errorf("config: section %q belongs to the platform", name)
	}
	dv := viper.New()
	dv.SetConfigType("yaml")
	if err := dv.ReadConfig(bytes.NewReader(defaults)); err != nil {
		return fmt.Errorf("config: defaults of %s: %w", name, err)
	}
	if !dv.IsSet(name) {
		return fmt.Errorf("config: the defaults given for %s do not hold a %q section", name, name)
	}
	// Defaults are viper's lowest layer: files, environment and Set win,
	// and the environment applies because the keys are now known.
	for _, k := range dv.AllKeys() {
		if strings.HasPrefix(k, name+".") {
			c.src.SetDefault(k, dv.Get(k))
		}
	}
	raw := map[string]any{}
	for _, k := range c.src.AllKeys() {
		if rest, ok := strings.CutPrefix(k, name+"."); ok {
			setNested(raw, strings.Split(rest, "."), c.src.Get(k))
		}
	}
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		DecodeHook: decodeHook(), ErrorUnused: true, WeaklyTypedInput: true, Result: dst,
	})
	if err != nil {
		return err
	}
	if err := dec.Decode(raw); err != nil {
		return fmt.Errorf("config: %s: %w", name, err)
	}
	if err := validateSection(name, dst); err != nil {
		return err
	}
	c.sections[name] = dst
	return nil
}

func setNested(m map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

// Set overrides a module-section key (dotted, e.g. "search.rerank_url")
// above every other layer. Tests and operator commands use it; it must be
// called before the module decodes its section.
func (c *Config) Set(key string, value any) { c.src.Set(key, value) }

// Get reads any dotted key as it stands now (module sections included).
func (c *Config) Get(key string) any { return c.src.Get(key) }

// Check refuses top-level sections in the configuration files that neither
// the platform nor any module claimed (a misspelt section would otherwise
// be ignored silently), and, outside development, the secrets
// config/dev.yaml publishes. Call it once every module has decoded its
// sections, so theirs are known.
func (c *Config) Check() error {
	var unknown []string
	for name := range c.Modules {
		if _, ok := c.sections[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	var err error
	if len(unknown) > 0 {
		sort.Strings(unknown)
		err = fmt.Errorf("config: unknown sections %s (no module owns them)", strings.Join(unknown, ", "))
	}
	return errors.Join(err, c.checkPublishedSecrets())
}

// platformSections are the top-level keys of Config itself.
var platformSections = func() map[string]struct{} {
	out := map[string]struct{}{}
	t := reflect.TypeOf(Config{})
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("mapstructure"); tag != "" && !strings.HasPrefix(tag, ",") {
			out[tag] = struct{}{}
		}
	}
	return out
}()

var validate = func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	// Report keys as they are written in YAML, not as Go field names.
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		return f.Tag.Get("mapstructure")
	})
	return v
}()

// Validate checks the platform's sections and names the offending keys.
func Validate(cfg *Config) error {
	if err := describe(validate.Struct(cfg), "", secretKeys); err != nil {
		return err
	}
	return checkDevIdP(cfg.DevIdP)
}

func validateSection(name string, dst any) error {
	return describe(validate.Struct(dst), name, secretKeysOf(reflect.TypeOf(dst).Elem(), name))
}

// describe turns validator errors into one message naming each dotted key
// and its environment variable; secret values are masked.
func describe(err error, section string, secrets map[string]bool) error {
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return err
	}
	msgs := make([]string, 0, len(verrs))
	for _, fe := range verrs {
		// The namespace starts with the struct's type name: replace it by
		// the section (module sections) or drop it (Config).
		_, key, _ := strings.Cut(fe.Namespace(), ".")
		if section != "" {
			key = section + "." + key
		}
		rule := fe.Tag()
		if fe.Param() != "" {
			rule += "=" + fe.Param()
		}
		value := fmt.Sprint(fe.Value())
		if secrets[key] {
			value = "****"
		}
		msgs = append(msgs, fmt.Sprintf("%s (env %s): value %q fails %s", key, EnvName(key), value, rule))
	}
	return fmt.Errorf("config: invalid values:\n  %s", strings.Join(msgs, "\n  "))
}

// EnvName is the environment variable that overrides a dotted key.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}
