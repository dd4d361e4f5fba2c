// Package migrations embeds every module's SQL migrations. Each module owns
// the folder named after it and the Postgres schema of the same name.
package migrations

import "embed"

// FS holds <module>/<version>_<name>.sql files.
//
//go:embed */*.sql
var FS embed.FS

// Order is the order modules migrate in. Modules never join across schemas,
// so the order matters only for platform (extensions, event tables), first.
var Order = []string{"platform", "identity", "bank", "search", "attempts", "drafts"}
