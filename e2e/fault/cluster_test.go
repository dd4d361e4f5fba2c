package fault_test

import (
	"time"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/config"
)

// cluster is a Postgres server of one test's own, so that restarting its
// postmaster disturbs no other test package sharing the machine's cluster.
type cluster struct{ *Cluster }

// startCluster initialises and starts a private cluster (a few seconds)
// with the rounds superuser and database, as db:start makes.
func startCluster() cluster {
	c, err := StartCluster()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return cluster{c}
}

// serve starts a deployment on database db of the cluster (migrated on
// start: a no-op on a restored one); the test stops it.
func (c cluster) serve(db string) *Harness {
	h, err := Start(WithConfig(func(cfg *config.Config) {
		cfg.Database.URL = c.URL(db)
		cfg.Database.MigrateOnStart = true
	}))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return h
}

// restart restarts the postmaster (every session ends) and returns how
// long it was down for.
func (c cluster) restart() time.Duration {
	down, err := c.Restart()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return down
}

// stop ends the server at once and deletes the cluster.
func (c cluster) stop() { Expect(c.Stop()).To(Succeed()) }

func (c cluster) run(name string, args ...string) {
	_, err := c.Run(name, args...)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
}
