package scripts

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// TestUpOnMovedPort is the README's first command as a new user runs it on
// a machine where port 54329 is someone else's: `ROUNDS_PG_PORT=N go tool
// task up` starts this checkout's cluster on N and the service must dial N
// (it dialled database.url's 54329 and failed after the whole build). The
// test runs the Taskfile's real up (WEB=skip: the web build is not what is
// tested), with the cluster in a directory of the test's own
// (ROUNDS_PG_DIR) on a free port, and the service's listeners on free
// ports; it never touches the shared cluster. It checks /api/health and a
// sign-in through the development provider, that the person was written to
// the cluster on N, and stops everything it started.
func TestUpOnMovedPort(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "rounds-up-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // the postgres user enters it
		t.Fatal(err)
	}
	pgPort, httpPort, idpPort, metricsPort := freePort(t), freePort(t), freePort(t), freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	issuer := fmt.Sprintf("http://127.0.0.1:%d", idpPort)
	env := append(cleanEnv(),
		"ROUNDS_PG_PORT="+strconv.Itoa(pgPort),
		"ROUNDS_PG_DIR="+dir,
		"ROUNDS_HTTP_ADDR="+fmt.Sprintf("127.0.0.1:%d", httpPort),
		"ROUNDS_METRICS_ADDR="+fmt.Sprintf("127.0.0.1:%d", metricsPort),
		"ROUNDS_SERVICE_PUBLIC_URL="+base,
		"ROUNDS_OIDC_CLIENT_URL="+base+"/",
		"ROUNDS_DEVIDP_ADDR="+fmt.Sprintf("127.0.0.1:%d", idpPort),
		"ROUNDS_DEVIDP_ISSUER="+issuer,
		"ROUNDS_OIDC_ISSUER="+issuer,
		"ROUNDS_STORAGE_URL=file://"+filepath.Join(dir, "uploads"),
	)
	t.Cleanup(func() {
		out, err := runIn(root, env, "scripts/pg-local.sh", "stop")
		if err != nil {
			t.Errorf("stopping the test's cluster: %v: %s", err, out)
		}
		if err := os.RemoveAll(dir); err != nil {
			t.Error(err)
		}
	})

	up := exec.Command("go", "tool", "task", "up", "WEB=skip")
	up.Dir, up.Env = root, env
	up.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // task, the build and the service: one group to stop
	var out lockedBuffer
	up.Stdout, up.Stderr = &out, &out
	if err := up.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- up.Wait() }()
	t.Cleanup(func() {
		_ = syscall.Kill(-up.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-up.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("task up said:\n%s", out.String())
		}
	})

	// The build comes first: a cold one takes minutes on a small machine.
	health := waitForHealth(t, base+"/api/health", exited, 15*time.Minute)
	if health["status"] != "ok" || health["database"] != "ok" {
		t.Fatalf("health = %v", health)
	}

	me := signInAsLearner(t, base, issuer)
	if me["email"] == nil || me["role"] != "user" {
		t.Fatalf("/auth/me after signing in as the seeded learner = %v", me)
	}

	// The person is in the cluster on the moved port.
	pg, err := sql.Open("pgx", fmt.Sprintf("postgres://rounds@127.0.0.1:%d/rounds?sslmode=disable", pgPort))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	var n int
	if err := pg.QueryRow(`SELECT count(*) FROM identity.users WHERE email = $1`, me["email"]).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the signed-in learner in the cluster on %d: %d rows, %v", pgPort, n, err)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("postgres running on 127.0.0.1:%d", pgPort)) {
		t.Fatalf("db:start did not start the cluster on %d:\n%s", pgPort, out.String())
	}
}

// cleanEnv is the test's environment without the variables that would
// point the service or db:start elsewhere (a CI's DATABASE_URL, another
// checkout's ROUNDS_* settings).
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "ROUNDS_") || strings.HasPrefix(kv, "DATABASE_URL=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func runIn(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// waitForHealth polls url until it answers 200 and returns the body; it
// fails when task up exits first or bound passes (a hung build).
func waitForHealth(t *testing.T, url string, exited <-chan error, bound time.Duration) map[string]any {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		select {
		case err := <-exited:
			t.Fatalf("task up exited before the service answered: %v", err)
		default:
		}
		if res, err := http.Get(url); err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				var m map[string]any
				if err := json.Unmarshal(body, &m); err != nil {
					t.Fatalf("health body %s: %v", body, err)
				}
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer from %s within %s", url, bound)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// signInAsLearner signs in as the development provider's seeded learner
// (password: the username) through the browser flow and returns /auth/me.
func signInAsLearner(t *testing.T, base, issuer string) map[string]any {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	redirect := func(res *http.Response, step string) string {
		t.Helper()
		defer res.Body.Close()
		if res.StatusCode != http.StatusFound && res.StatusCode != http.StatusSeeOther {
			body, _ := io.ReadAll(res.Body)
			t.Fatalf("%s: want a redirect, got %d: %s", step, res.StatusCode, body)
		}
		to, err := res.Request.URL.Parse(res.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		return to.String()
	}
	get := func(u string) *http.Response {
		t.Helper()
		res, err := browser.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	authorize := redirect(get(base+"/api/v1/auth/sso/login"), "login")
	login := redirect(get(authorize), "provider authorize")
	loginURL, _ := url.Parse(login)
	res, err := browser.PostForm(issuer+"/login", url.Values{"id": {loginURL.Query().Get("authRequestID")},
		"username": {"learner"}, "password": {"learner"}, "action": {"login"}})
	if err != nil {
		t.Fatal(err)
	}
	callback := redirect(get(redirect(res, "provider login form")), "provider callback")
	client, _ := url.Parse(redirect(get(callback), "app callback"))
	code := client.Query().Get("code")
	if code == "" {
		t.Fatalf("no code in %s", client)
	}
	res, err = browser.Post(base+"/api/v1/auth/sso/exchange", "application/json",
		strings.NewReader(fmt.Sprintf(`{"code":%q}`, code)))
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	decode(t, res, &tok)
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/auth/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	if res, err = browser.Do(req); err != nil {
		t.Fatal(err)
	}
	var me map[string]any
	decode(t, res, &me)
	return me
}

func decode(t *testing.T, res *http.Response, v any) {
	t.Helper()
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", res.Request.Method, res.Request.URL, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// lockedBuffer collects a child's output written from two pipes at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
