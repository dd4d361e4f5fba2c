package fault_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"time"

	. "github.com/onsi/gomega"

	. "github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/config"
)

// pgBin is where scripts/pg-install.sh puts PostgreSQL (go tool task
// db:start installs it before any test runs).
const pgBin = "/usr/lib/postgresql/15/bin"

// cluster is a Postgres server of one test's own, so that restarting its
// postmaster disturbs no other test package sharing the machine's cluster.
type cluster struct {
	dir  string
	port int
}

// startCluster initialises and starts a private cluster (about a few
// seconds) with the rounds superuser and database, as db:start makes.
func startCluster() *cluster {
	dir, err := os.MkdirTemp("", "rounds-fault-pg-")
	Expect(err).NotTo(HaveOccurred())
	Expect(os.Chmod(dir, 0o755)).To(Succeed())
	c := &cluster{dir: dir, port: freePort()}
	if os.Geteuid() == 0 { // Postgres refuses root: the postgres user owns it
		pg, err := user.Lookup("postgres")
		Expect(err).NotTo(HaveOccurred())
		uid, _ := strconv.Atoi(pg.Uid)
		gid, _ := strconv.Atoi(pg.Gid)
		Expect(os.Chown(dir, uid, gid)).To(Succeed())
	}
	c.run("initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8")
	conf := fmt.Sprintf("listen_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = '%s'\nfsync = off\nmax_connections = 100\n",
		c.port, dir)
	f, err := os.OpenFile(filepath.Join(c.data(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	Expect(err).NotTo(HaveOccurred())
	_, err = f.WriteString(conf)
	Expect(err).NotTo(HaveOccurred())
	Expect(f.Close()).To(Succeed())
	c.run("pg_ctl", "-D", c.data(), "-l", filepath.Join(dir, "log"), "-w", "start")
	c.run("psql", "-h", "127.0.0.1", "-p", strconv.Itoa(c.port), "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
		"-c", "CREATE ROLE rounds LOGIN SUPERUSER", "-c", "CREATE DATABASE rounds OWNER rounds")
	return c
}

func (c *cluster) data() string { return filepath.Join(c.dir, "data") }

// serve starts a deployment on database db of the cluster (migrated on
// start: a no-op on a restored one); the test stops it.
func (c *cluster) serve(db string) *Harness {
	h, err := Start(WithConfig(func(cfg *config.Config) {
		cfg.Database.URL = fmt.Sprintf("postgres://rounds@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
		cfg.Database.MigrateOnStart = true
	}))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return h
}

// restart is pg_ctl restart in fast mode: every session is ended, the
// postmaster stops and starts again; it returns once the server accepts
// connections, and how long it was down for.
func (c *cluster) restart() time.Duration {
	start := time.Now()
	c.run("pg_ctl", "-D", c.data(), "-m", "fast", "-w", "restart", "-l", filepath.Join(c.dir, "log"))
	return time.Since(start)
}

// stop ends the server at once and deletes the cluster.
func (c *cluster) stop() {
	_ = c.cmd("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop").Run()
	Expect(os.RemoveAll(c.dir)).To(Succeed())
}

func (c *cluster) cmd(name string, args ...string) *exec.Cmd {
	name = filepath.Join(pgBin, name)
	if os.Geteuid() == 0 {
		args = append([]string{"-u", "postgres", "--", name}, args...)
		name = "runuser"
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = "/" // the postgres user may not enter the working directory
	return cmd
}

func (c *cluster) run(name string, args ...string) {
	out, err := c.cmd(name, args...).CombinedOutput()
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "%s: %s", name, out)
}

// freePort is a loopback port nobody listens on now.
func freePort() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
