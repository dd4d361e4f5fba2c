package fault_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/e2e/harness"
	"github.com/roundsedu/rounds/platform/jobs"
)

// A helper is this test binary re-executed with helperRoleEnv set: it
// builds and starts the app exactly as `rounds <role>` does (app.New, then
// Start with the role) on the database in helperDBEnv, plus the test's own
// job kind and scheduled tick, prints "ready <http address>" and runs
// until it is killed.
const (
	helperRoleEnv   = "ROUNDS_FAULT_ROLE"
	helperDBEnv     = "ROUNDS_FAULT_DB"
	helperSecretEnv = "ROUNDS_FAULT_SECRET"
	helperDirEnv    = "ROUNDS_FAULT_DIR"

	blockJob   = "fault.block" // see block
	tickEvery  = time.Second   // the scheduled tick's period
	tickTable  = "public.fault_ticks"
	tickSchema = `CREATE TABLE IF NOT EXISTS public.fault_ticks (pid int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`

	onceJob    = "fault.once" // see once
	onceTable  = "public.fault_once"
	onceSchema = `CREATE TABLE IF NOT EXISTS public.fault_once (job uuid NOT NULL, pid int NOT NULL)`
)

func runHelper(role app.Role) int {
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "fault helper:", err); return 1 }
	cfg, err := harness.TestConfig(os.Getenv(helperDBEnv), os.Getenv(helperDirEnv))
	if err != nil {
		return fail(err)
	}
	// Tokens the suite's process signs are good here, as behind one load balancer.
	cfg.Auth.TokenSecret = os.Getenv(helperSecretEnv)
	ctx := context.Background()
	a, err := app.New(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return fail(err)
	}
	registerBlock(a)
	a.Scheduler.Every("fault.tick", tickEvery, func(ctx context.Context) error {
		return a.DB.Conn(ctx).Exec("INSERT INTO "+tickTable+" (pid) VALUES (?)", os.Getpid()).Error
	})
	if err := a.Start(ctx, role); err != nil {
		return fail(err)
	}
	fmt.Printf("ready %s\n", a.HTTPAddr())
	<-a.Done()
	return 0
}

// block is a fault.block job: with Block, its first run blocks until its
// worker is killed.
type block struct {
	Block bool `json:"block"`
}

func (block) Kind() string { return blockJob }

// blockTimeout is fault.block's time limit: a killed worker's job is
// taken up once it has run this long (and jobs.rescue_after).
const blockTimeout = 5 * time.Second

// once is a fault.once job: it stores a row and its result in one
// transaction (Run.Done); with Block, its first run then blocks until its
// worker is killed, after the commit and before River hears the job ended.
type once struct {
	Block bool `json:"block"`
}

func (once) Kind() string { return onceJob }

// registerBlock declares fault.block and fault.once: the helpers run them,
// the suite's own process queues them.
func registerBlock(a *app.App) {
	jobs.Register(a.Runner, jobs.Kind[once]{Timeout: blockTimeout, Handle: func(ctx context.Context, run *jobs.Run[once]) (any, error) {
		result := map[string]any{"attempt": run.Attempt, "pid": os.Getpid()}
		err := a.DB.Tx(ctx, func(ctx context.Context) error {
			if err := a.DB.Conn(ctx).Exec("INSERT INTO "+onceTable+" (job, pid) VALUES (?, ?)", run.ID, os.Getpid()).Error; err != nil {
				return err
			}
			return run.Done(ctx, result)
		})
		for err == nil && run.Args.Block && run.Attempt == 1 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
		return result, err
	}})
	jobs.Register(a.Runner, jobs.Kind[block]{Timeout: blockTimeout, Handle: func(ctx context.Context, run *jobs.Run[block]) (any, error) {
		for run.Args.Block && run.Attempt == 1 {
			if err := run.Step(ctx, "waiting", fmt.Sprint(os.Getpid())); err != nil {
				return nil, err
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
		return map[string]any{"attempt": run.Attempt, "pid": os.Getpid()}, nil
	}})
}

// process is a running helper.
type process struct {
	role  app.Role
	cmd   *exec.Cmd
	addr  string // its HTTP address when it serves
	ready chan string
	done  chan struct{}
}

func (p *process) pid() int { return p.cmd.Process.Pid }

// kill ends the process with SIGKILL: no deferred call, no shutdown, no
// lease or lock released by the process itself.
func (p *process) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

var (
	helpersMu sync.Mutex
	helpers   []*process
)

// startHelper starts a process running role on the suite's database and
// waits until it is ready.
func startHelper(role app.Role) *process {
	p := launchHelper(role)
	p.await()
	return p
}

// startHelpers starts a process for each role at once, and waits until
// all are ready.
func startHelpers(roles ...app.Role) []*process {
	var ps []*process
	for _, r := range roles {
		ps = append(ps, launchHelper(r))
	}
	for _, p := range ps {
		p.await()
	}
	return ps
}

// launchHelper starts a process running role on the suite's database.
func launchHelper(role app.Role) *process {
	self, err := os.Executable()
	Expect(err).NotTo(HaveOccurred())
	dir, err := os.MkdirTemp("", "rounds-fault-")
	Expect(err).NotTo(HaveOccurred())
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), helperRoleEnv+"="+string(role), helperDBEnv+"="+h.DBURL,
		helperSecretEnv+"="+h.Config.Auth.TokenSecret, helperDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(cmd.Start()).To(Succeed())
	p := &process{role: role, cmd: cmd, ready: make(chan string, 1), done: make(chan struct{})}
	go func() { _ = cmd.Wait(); _ = os.RemoveAll(dir); close(p.done) }()
	helpersMu.Lock()
	helpers = append(helpers, p)
	helpersMu.Unlock()
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "ready "); ok {
				p.ready <- addr
			}
		}
	}()
	return p
}

// await waits until the process is ready.
func (p *process) await() {
	select {
	case p.addr = <-p.ready:
	case <-p.done:
		Fail(fmt.Sprintf("helper %s exited before it was ready", p.role))
	case <-time.After(60 * time.Second):
		p.kill()
		Fail(fmt.Sprintf("helper %s not ready in 60s", p.role))
	}
}

// stopHelpers kills whatever helper is still running.
func stopHelpers() {
	helpersMu.Lock()
	defer helpersMu.Unlock()
	for _, p := range helpers {
		p.kill()
	}
	helpers = nil
}
