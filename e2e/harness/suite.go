package harness

import (
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// RunSuite is a suite's one Go test: Gomega fails through Ginkgo, which
// runs every spec of the package under the name.
func RunSuite(t *testing.T, name string) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	ginkgo.RunSpecs(t, name)
}

// Suite gives a suite its apps. Before the first spec it runs the
// BeforeApps functions, starts the app (with the Options among opts), then
// each WithApp app in order, then ready (nil for none: it signs in the
// suite's users). After the last spec everything stops in the reverse
// order: what ready defers, the apps last started first, then what the
// BeforeApps functions defer. Called once, at package level:
//
//	var h *Harness
//	var _ = Suite(&h, func() { mod = h.NewUser(auth.RoleModerator) })
func Suite(into **Harness, ready func(), opts ...SuiteOption) bool {
	s := &suiteSetup{}
	for _, o := range opts {
		o.applySuite(s)
	}
	return ginkgo.BeforeSuite(func() {
		for _, fn := range s.before {
			fn()
		}
		start(into, s.first)
		for _, a := range s.apps {
			start(a.into, a.opts)
		}
		if ready != nil {
			ready()
		}
	})
}

// start starts one app into *into and defers its Stop. A cleanup deferred
// in BeforeSuite runs after the last spec, latest first.
func start(into **Harness, opts []Option) {
	started, err := Start(opts...)
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	*into = started
	ginkgo.DeferCleanup(func() { gomega.Expect(started.Stop()).To(gomega.Succeed()) })
}

// SuiteOption shapes a Suite: an Option of its app, or a suite-wide
// option (BeforeApps, WithApp).
type SuiteOption interface{ applySuite(*suiteSetup) }

type suiteSetup struct {
	before []func()
	first  []Option
	apps   []suiteApp
}

// suiteApp is an app a suite runs beside its first.
type suiteApp struct {
	into **Harness
	opts []Option
}

func (o Option) applySuite(s *suiteSetup) { s.first = append(s.first, o) }

type suiteOption func(*suiteSetup)

func (o suiteOption) applySuite(s *suiteSetup) { o(s) }

// BeforeApps runs fn before the suite's apps start: it starts what their
// configuration points at (a stand-in model proxy, a mail server), which a
// WithConfig function reads when its app starts. What fn defers
// (DeferCleanup) runs after the apps have stopped.
func BeforeApps(fn func()) SuiteOption {
	return suiteOption(func(s *suiteSetup) { s.before = append(s.before, fn) })
}

// WithApp runs a further app in the suite, into *into: its own database,
// files and identity provider, configured by opts alone (none of the first
// app's options apply to it). Suites compare two deployments with it: a
// default one beside a configured one, role mapping on and off.
func WithApp(into **Harness, opts ...Option) SuiteOption {
	return suiteOption(func(s *suiteSetup) { s.apps = append(s.apps, suiteApp{into: into, opts: opts}) })
}
