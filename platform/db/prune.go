package db

import (
	"context"
	"fmt"
)

// PruneBatch is how many rows one DeleteInBatches statement removes at most.
const PruneBatch = 5000

// DeleteInBatches deletes table's rows matching where (SQL of the caller's
// code, never input; args fill its placeholders), at most PruneBatch per
// statement, each statement its own transaction whatever ctx carries, until
// a statement deletes fewer. Housekeeping deletes this way because a long
// write transaction stalls the event outbox: Watermill delivers only
// messages whose transaction is older than the oldest transaction still
// running (pg_snapshot_xmin), so one delete of a month of rows would hold
// back every consumer group for as long as it runs.
func (d *DB) DeleteInBatches(ctx context.Context, table, where string, args ...any) (int64, error) {
	stmt := fmt.Sprintf(`DELETE FROM %s WHERE ctid = ANY(ARRAY(SELECT ctid FROM %s WHERE %s LIMIT %d))`,
		table, table, where, PruneBatch)
	var total int64
	for {
		res := d.Detached(ctx).Exec(stmt, args...)
		total += res.RowsAffected
		if res.Error != nil || res.RowsAffected < PruneBatch {
			return total, res.Error
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}
