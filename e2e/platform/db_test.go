package platform_test

import (
	"context"
	"errors"
	"log/slog"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/settings"
)

var _ = Describe("One way to the database", Ordered, func() {
	const key = "test.tx_probe"
	ctx := context.Background()
	read := func(ctx context.Context) string {
		var v string
		Expect(h.App.Settings.Get(ctx, key, &v)).To(Succeed())
		return v
	}

	BeforeAll(func() {
		h.App.Settings.Register(settings.Setting{Key: key, Default: "before"})
	})

	It("lets a store call inside a transaction see that transaction's writes, and nobody else", func() {
		err := h.App.DB.Tx(ctx, func(tx context.Context) error {
			_, err := h.App.Settings.Put(tx, 1, map[string]any{key: "inside"})
			Expect(err).NotTo(HaveOccurred())
			Expect(read(tx)).To(Equal("inside"), "the same transaction sees its write")
			Expect(read(ctx)).To(Equal("before"), "the pool does not see an uncommitted write")
			return errors.New("roll back")
		})
		Expect(err).To(MatchError("roll back"))
		Expect(read(ctx)).To(Equal("before"), "a rolled-back write is gone")

		Expect(h.App.DB.Tx(ctx, func(tx context.Context) error {
			_, err := h.App.Settings.Put(tx, 1, map[string]any{key: "committed"})
			return err
		})).To(Succeed())
		Expect(read(ctx)).To(Equal("committed"))
	})

	It("takes row locks only inside a transaction", func() {
		var keys []string
		err := h.App.DB.Locked(ctx).Table("platform.settings").Where("key = ?", key).Pluck("key", &keys).Error
		Expect(err).To(MatchError(db.ErrNoTx), "a lock outside a transaction would be released at once")
		Expect(h.App.DB.Tx(ctx, func(tx context.Context) error {
			return h.App.DB.Locked(tx).Table("platform.settings").Where("key = ?", key).Pluck("key", &keys).Error
		})).To(Succeed())
		Expect(keys).To(Equal([]string{key}))
	})
	It("holds a key-share lock against a delete but not against an update of other columns", func() {
		other := func(stmt string) error { // a second transaction that gives up quickly
			return h.App.DB.Tx(ctx, func(tx context.Context) error {
				if err := h.App.DB.Conn(tx).Exec(`SET LOCAL lock_timeout = '100ms'`).Error; err != nil {
					return err
				}
				return h.App.DB.Conn(tx).Exec(stmt, key).Error
			})
		}
		var keys []string
		Expect(h.App.DB.Locking(ctx, db.NoLock).Table("platform.settings").Where("key = ?", key).
			Pluck("key", &keys).Error).To(Succeed(), "no lock needs no transaction")
		Expect(h.App.DB.Tx(ctx, func(tx context.Context) error {
			if err := h.App.DB.Locking(tx, db.ForKeyShare).Table("platform.settings").Where("key = ?", key).
				Pluck("key", &keys).Error; err != nil {
				return err
			}
			Expect(other(`UPDATE platform.settings SET updated_at = now() WHERE key = ?`)).To(Succeed())
			Expect(other(`DELETE FROM platform.settings WHERE key = ?`)).To(MatchError(ContainSubstring("lock timeout")))
			return nil
		})).To(Succeed())
		Expect(keys).To(Equal([]string{key}))
	})
})

// openDB opens a pool on url for the test's own reads, closed when the test
// ends.
func openDB(url string) *db.DB {
	d, err := db.Open(context.Background(), config.Database{URL: url, MaxOpenConns: 2, MaxIdleConns: 1},
		slog.New(slog.DiscardHandler))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(d.Close)
	return d
}
