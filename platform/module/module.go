// Package module is how a bounded context plugs into the service.
//
// The app keeps one list of module constructors. Each constructor gets a
// Kit (the platform's pieces and the configuration), decodes its own
// configuration section (Section), declares the facades of other modules it
// needs (Need), and returns its Module. The module then says what it brings
// by implementing the optional interfaces below (routes, event handlers,
// jobs, schedules, start-up work); its migrations are the folder of
// migrations/ named after it. Adding a module is its folder plus one line
// in the app's list (docs/adding-a-module.md).
package module

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"sort"
	"strings"

	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
	"github.com/roundsedu/rounds/platform/events"
	"github.com/roundsedu/rounds/platform/httpapi"
	"github.com/roundsedu/rounds/platform/jobs"
	"github.com/roundsedu/rounds/platform/ratelimit"
	"github.com/roundsedu/rounds/platform/scheduler"
	"github.com/roundsedu/rounds/platform/settings"
	"github.com/roundsedu/rounds/platform/storage"
)

// Module is a built bounded context. Its name is its Postgres schema, its
// migrations folder and the name other modules Need it by.
type Module interface {
	Name() string
}

// Constructor builds a module from the kit.
type Constructor func(ctx context.Context, k *Kit) (Module, error)

// What a module may bring; the app looks for each on every module.
type (
	// Router registers HTTP operations.
	Router interface{ Routes(r *httpapi.Router) }
	// Subscriber registers event handlers.
	Subscriber interface{ Subscribe(b *events.Bus) }
	// JobHandler registers on-demand job kinds.
	JobHandler interface{ Jobs(r *jobs.Runner) }
	// Scheduled registers periodic jobs (they run on the scheduler leader).
	Scheduled interface{ Schedule(s *scheduler.Scheduler) }
	// Starter runs once the ports are wired and before the process serves
	// (demo data). It must be safe to run in several processes at once.
	Starter interface {
		Start(ctx context.Context) error
	}
	// Background runs beside the HTTP server for the life of a process
	// that serves (a read cache kept fresh by notifications); it returns
	// nil once ctx ends.
	Background interface {
		Background(ctx context.Context) error
	}
)

// Kit is what a module is built from: the platform's shared pieces. The
// module keeps what it uses; none of it is module-specific.
type Kit struct {
	Config   *config.Config
	Log      *slog.Logger
	DB       *db.DB
	Bus      *events.Bus
	Queue    *jobs.Queue
	Storage  *storage.Store
	Limiter  *ratelimit.Limiter
	Settings *settings.Registry
	// Signer issues access tokens; MediaSigner the media cookie's value
	// (identity signs people in with them).
	Signer      *auth.Signer
	MediaSigner *auth.Signer
	// Verifiers cache each caller's role; identity drops a user's entry
	// when their role changes or the account goes.
	Verifiers []*auth.Verifier

	owner string // who the Needs being declared belong to
	needs []need
	built []Module
}

type need struct {
	owner, provider, port string
	all                   bool // NeedAll: every other module that implements the port
	fill                  func(Module) bool
}

// Section decodes a configuration section the module owns (see
// config.Config.Section): defaults is the module's documented YAML file.
func Section[T any](k *Kit, name string, defaults []byte) (T, error) {
	var cfg T
	err := k.Config.Section(name, defaults, &cfg)
	return cfg, err
}

// Need declares that what is being built needs the facade of the module
// named provider as a T: once every module is built, *dst is set to that
// module. A missing provider, or one that is not a T, stops the boot with a
// message naming both sides, so a forgotten port never fails silently at
// the first request. Ports may point either way between modules (bank asks
// attempts, attempts asks bank) where the app lists the two as a Pair;
// nothing may use them before Build returns.
func Need[T any](k *Kit, provider string, dst *T) {
	owner := k.owner
	if owner == "" {
		owner = "app"
	}
	k.needs = append(k.needs, need{owner: owner, provider: provider,
		port: reflect.TypeOf((*T)(nil)).Elem().String(),
		fill: func(m Module) bool {
			v, ok := m.(T)
			if ok {
				*dst = v
			}
			return ok
		}})
}

// NeedAll declares that what is being built asks every other module that
// implements T (a capability several modules offer, such as telling search
// which of their items a caller may find): once every module is built,
// *dst holds them in the app's order. It may be empty.
func NeedAll[T any](k *Kit, dst *[]T) {
	owner := k.owner
	if owner == "" {
		owner = "app"
	}
	k.needs = append(k.needs, need{owner: owner, all: true,
		port: reflect.TypeOf((*T)(nil)).Elem().String(),
		fill: func(m Module) bool {
			v, ok := m.(T)
			if ok {
				*dst = append(*dst, v)
			}
			return ok
		}})
}

// Pair is two modules that call each other at runtime: each Needs the
// other's facade. Such a cycle is allowed only where the app lists it, so a
// reader sees every one in one place (app/modules.go).
type Pair [2]string

// Build runs the constructors in order and then wires every declared Need.
// Needs declared outside a constructor (by the app itself) are owned by
// "app". Two modules that Need each other must be one of pairs, and each of
// pairs must Need each other.
func (k *Kit) Build(ctx context.Context, ctors []Constructor, pairs ...Pair) ([]Module, error) {
	for _, ctor := range ctors {
		first := len(k.needs)
		k.owner = "a module"
		m, err := ctor(ctx, k)
		if err != nil {
			return nil, err
		}
		for _, b := range k.built {
			if b.Name() == m.Name() {
				return nil, fmt.Errorf("module %s is listed twice", m.Name())
			}
		}
		for i := first; i < len(k.needs); i++ {
			k.needs[i].owner = m.Name()
		}
		k.built = append(k.built, m)
	}
	k.owner = "app"
	if err := k.checkPairs(pairs); err != nil {
		return nil, err
	}
	return k.built, k.wire()
}

// checkPairs compares the two-way Needs with the listed pairs.
func (k *Kit) checkPairs(pairs []Pair) error {
	needs := map[[2]string]bool{}
	for _, n := range k.needs {
		if !n.all {
			needs[[2]string{n.owner, n.provider}] = true
		}
	}
	listed := map[[2]string]bool{}
	var problems []string
	for _, p := range pairs {
		listed[p], listed[[2]string{p[1], p[0]}] = true, true
		if !needs[p] || !needs[[2]string{p[1], p[0]}] {
			problems = append(problems, fmt.Sprintf("%s and %s are listed as a pair but do not Need each other both ways", p[0], p[1]))
		}
	}
	for n := range needs {
		if n[0] < n[1] && needs[[2]string{n[1], n[0]}] && !listed[n] {
			problems = append(problems, fmt.Sprintf("%s and %s Need each other: list the pair in the app's Pairs", n[0], n[1]))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("module pairs:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

func (k *Kit) wire() error {
	byName := map[string]Module{}
	for _, m := range k.built {
		byName[m.Name()] = m
	}
	var problems []string
	for _, n := range k.needs {
		if n.all {
			for _, m := range k.built {
				if m.Name() != n.owner {
					n.fill(m)
				}
			}
			continue
		}
		m, ok := byName[n.provider]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s needs %s from module %q, which is not in the app's list", n.owner, n.port, n.provider))
		case !n.fill(m):
			problems = append(problems, fmt.Sprintf("%s needs %s from module %q, which does not implement it", n.owner, n.port, n.provider))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("module wiring:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// Lookup finds a built module by its type (operator commands and tests).
func Lookup[T Module](mods []Module) (T, bool) {
	for _, m := range mods {
		if t, ok := m.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}
