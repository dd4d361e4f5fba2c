package config

import (
	"bytes"
	"fmt"
	"net"
	"reflect"
	"sort"
	"strings"

	"github.com/spf13/viper"

	files "github.com/roundsedu/rounds/config"
)

// checkDevIdP refuses the development identity provider on an address
// others can reach unless devidp.allow_public says so: it signs anyone in
// as anyone, administrators included, with the password on its page.
func checkDevIdP(d DevIdP) error {
	if !d.Enabled || d.AllowPublic || Loopback(d.Addr) {
		return nil
	}
	return fmt.Errorf("config: devidp.addr (env %s) %q is not a loopback address: the development identity "+
		"provider signs anyone in as an administrator. Bind it to 127.0.0.1, or set devidp.allow_public "+
		"(env %s) to true if strangers signing in is what you want", EnvName("devidp.addr"), d.Addr,
		EnvName("devidp.allow_public"))
}

// Loopback reports whether a listen address (host:port) accepts
// connections from this machine only: a loopback IP, or localhost. An
// empty host listens on every interface.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Development reports whether this is the local development setup that
// config/dev.yaml describes: the development identity provider on, on a
// loopback address. Only there are the secrets dev.yaml publishes
// accepted.
func (c *Config) Development() bool {
	return c.DevIdP.Enabled && Loopback(c.DevIdP.Addr)
}

// checkPublishedSecrets refuses, outside development, every secret key
// (tagged `secret`, the platform's and every decoded module section's)
// whose value is the one config/dev.yaml publishes: anyone who read the
// repository could sign tokens with it.
func (c *Config) checkPublishedSecrets() error {
	if c.Development() {
		return nil
	}
	published, err := publishedSecrets()
	if err != nil {
		return err
	}
	var used []string
	for key, value := range c.secretValues() {
		if s, ok := value.(string); ok && s != "" && published[key] == s {
			used = append(used, key)
		}
	}
	if len(used) == 0 {
		return nil
	}
	sort.Strings(used)
	msgs := make([]string, len(used))
	for i, k := range used {
		msgs[i] = fmt.Sprintf("%s (env %s)", k, EnvName(k))
	}
	return fmt.Errorf("config: %s hold the secrets config/dev.yaml publishes; outside development "+
		"(devidp.enabled on a loopback address) set secrets of your own (openssl rand -base64 48)",
		strings.Join(msgs, ", "))
}

// publishedSecrets is every string value of config/dev.yaml by dotted key.
func publishedSecrets() (map[string]string, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(files.Dev)); err != nil {
		return nil, fmt.Errorf("config: dev.yaml: %w", err)
	}
	out := map[string]string{}
	for _, k := range v.AllKeys() {
		if s, ok := v.Get(k).(string); ok {
			out[k] = s
		}
	}
	return out, nil
}

// secretValues is the value of every secret key in force: the platform's
// and those of the module sections decoded so far.
func (c *Config) secretValues() map[string]any {
	out := map[string]any{}
	collect := func(v reflect.Value, prefix string) {
		walk(v.Type(), prefix, func(key string, f reflect.StructField) {
			if f.Tag.Get("secret") != "" {
				out[key] = fieldByKey(v, strings.TrimPrefix(strings.TrimPrefix(key, prefix), ".")).Interface()
			}
		})
	}
	collect(reflect.ValueOf(c).Elem(), "")
	for name, section := range c.sections {
		collect(reflect.ValueOf(section).Elem(), name)
	}
	return out
}
