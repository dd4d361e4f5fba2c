package harness

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"time"
)

// PGBin is where scripts/pg-install.sh puts PostgreSQL (go tool task
// db:start installs it before any test runs).
const PGBin = "/usr/lib/postgresql/15/bin"

// Cluster is a Postgres server of one test's own on a free port in a
// temporary directory, so that restarting it, replicating from it or
// pausing it disturbs no other test sharing the machine's cluster. It is
// initialised as db:start makes the local one (the rounds superuser and
// database; wal_level replica, Postgres's default, so a standby can follow).
type Cluster struct {
	Dir  string // holds data/, the socket and log
	Port int
}

// StartCluster initialises and starts a cluster (a few seconds); conf
// lines are added to its postgresql.conf.
func StartCluster(conf ...string) (*Cluster, error) {
	c, err := newCluster()
	if err != nil {
		return nil, err
	}
	if _, err := c.Run("initdb", "-D", c.Data(), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"); err != nil {
		return nil, errors.Join(err, os.RemoveAll(c.Dir))
	}
	if err := c.start(conf); err != nil {
		return nil, err
	}
	if _, err := c.Run("psql", "-h", "127.0.0.1", "-p", strconv.Itoa(c.Port), "-U", "postgres", "-d", "postgres",
		"-v", "ON_ERROR_STOP=1", "-c", "CREATE ROLE rounds LOGIN SUPERUSER", "-c", "CREATE DATABASE rounds OWNER rounds"); err != nil {
		return nil, errors.Join(err, c.Stop())
	}
	return c, nil
}

// Standby starts a hot standby of c, a base backup streaming c's WAL (as
// a production read replica is made), with conf lines added.
func (c *Cluster) Standby(conf ...string) (*Cluster, error) {
	s, err := newCluster()
	if err != nil {
		return nil, err
	}
	if _, err := s.Run("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(c.Port), "-U", "postgres",
		"-D", s.Data(), "-R", "-X", "stream", "--checkpoint=fast"); err != nil {
		return nil, errors.Join(err, os.RemoveAll(s.Dir))
	}
	if err := s.start(append([]string{"hot_standby = on"}, conf...)); err != nil {
		return nil, err
	}
	return s, nil
}

func newCluster() (*Cluster, error) {
	dir, err := os.MkdirTemp("", "rounds-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir}
	if c.Port, err = FreePort(); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	if os.Geteuid() == 0 { // Postgres refuses root: the postgres user owns it
		pg, err := user.Lookup("postgres")
		if err != nil {
			return nil, errors.Join(err, os.RemoveAll(dir))
		}
		uid, _ := strconv.Atoi(pg.Uid)
		gid, _ := strconv.Atoi(pg.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, errors.Join(err, os.RemoveAll(dir))
		}
	}
	return c, nil
}

// start writes the listener settings and conf into postgresql.conf (the
// last setting of a name wins) and starts the server.
func (c *Cluster) start(conf []string) error {
	lines := fmt.Sprintf("\nlisten_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = '%s'\nfsync = off\nmax_connections = 100\n",
		c.Port, c.Dir)
	for _, l := range conf {
		lines += l + "\n"
	}
	f, err := os.OpenFile(filepath.Join(c.Data(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(lines)
		err = errors.Join(err, f.Close())
	}
	if err == nil {
		_, err = c.Run("pg_ctl", "-D", c.Data(), "-l", filepath.Join(c.Dir, "log"), "-w", "start")
	}
	if err != nil {
		return errors.Join(err, os.RemoveAll(c.Dir))
	}
	return nil
}

// Data is the data directory.
func (c *Cluster) Data() string { return filepath.Join(c.Dir, "data") }

// URL is the address of database db as the rounds user.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://rounds@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

// SQL runs statements with psql on database db as the postgres superuser
// and returns what psql printed (unaligned, tuples only).
func (c *Cluster) SQL(db string, statements ...string) (string, error) {
	args := []string{"-h", "127.0.0.1", "-p", strconv.Itoa(c.Port), "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-qtA"}
	for _, s := range statements {
		args = append(args, "-c", s)
	}
	out, err := c.Run("psql", args...)
	return string(out), err
}

// Restart is pg_ctl restart in fast mode: every session is ended, the
// postmaster stops and starts again; it returns once the server accepts
// connections, and how long it was down for.
func (c *Cluster) Restart() (time.Duration, error) {
	start := time.Now()
	_, err := c.Run("pg_ctl", "-D", c.Data(), "-m", "fast", "-w", "restart", "-l", filepath.Join(c.Dir, "log"))
	return time.Since(start), err
}

// Stop ends the server at once and deletes the cluster.
func (c *Cluster) Stop() error {
	_ = c.Cmd("pg_ctl", "-D", c.Data(), "-m", "immediate", "-w", "stop").Run()
	return os.RemoveAll(c.Dir)
}

// Cmd is one of PostgreSQL's programs, run as the postgres user when the
// test runs as root.
func (c *Cluster) Cmd(name string, args ...string) *exec.Cmd {
	name = filepath.Join(PGBin, name)
	if os.Geteuid() == 0 {
		args = append([]string{"-u", "postgres", "--", name}, args...)
		name = "runuser"
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = "/" // the postgres user may not enter the working directory
	return cmd
}

// Run runs Cmd and returns its output, which the error carries too.
func (c *Cluster) Run(name string, args ...string) ([]byte, error) {
	out, err := c.Cmd(name, args...).CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("%s: %w: %s", name, err, out)
	}
	return out, nil
}

// FreePort is a loopback port nobody listens on now.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
