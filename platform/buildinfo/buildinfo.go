// Package buildinfo reports the version of the running binary.
package buildinfo

import "runtime/debug"

// Version is stamped at build time with
// -ldflags "-X github.com/roundsedu/rounds/platform/buildinfo.Version=v1.2.3".
// When it is not stamped, the VCS revision recorded by the Go toolchain is used.
var Version = ""

// String returns the version, never empty.
func String() string {
	if Version != "" {
		return Version
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "dev-" + s.Value[:12]
			}
		}
	}
	return "dev"
}
