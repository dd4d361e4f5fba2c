// Package config holds the configuration files shipped with the binary.
// default.yaml documents every key; platform/config loads it first.
// dev.yaml is the local development overlay; platform/config reads the
// secrets it publishes, to refuse them anywhere but in development.
package config

import _ "embed"

// Default is config/default.yaml, the base every deployment starts from.
//
//go:embed default.yaml
var Default []byte

// Dev is config/dev.yaml, the overlay of `go tool task up`. Its secrets are
// public.
//
//go:embed dev.yaml
var Dev []byte
