// Package migrations embeds every module's SQL migrations. Each module owns
// the folder named after it and the Postgres schema of the same name;
// platform/db discovers the folders (platform first: extensions and the
// event tables), so a new module only adds its folder.
package migrations

import "embed"

// FS holds <module>/<version>_<name>.sql files.
//
//go:embed */*.sql
var FS embed.FS
