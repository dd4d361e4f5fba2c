// Package config holds the configuration files shipped with the binary.
// default.yaml documents every key; platform/config loads it first.
package config

import _ "embed"

// Default is config/default.yaml, the base every deployment starts from.
//
//go:embed default.yaml
var Default []byte
