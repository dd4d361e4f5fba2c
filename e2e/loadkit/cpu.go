package loadkit

import (
	"net/url"
	"strings"
	"time"

	"github.com/prometheus/procfs"
)

// CPUTimes reads the CPU time used so far by this process and by the
// Postgres backends serving database (named in their process titles,
// "postgres: <user> <database> <client> <state>"): on a cluster other
// work shares, the other databases' backends are not the measured load's.
// A backend that exits takes its time with it, but a service's pool keeps
// its connections. The cluster's own processes (WAL writer, checkpointer,
// autovacuum) are left out.
func CPUTimes(database string) (self, db time.Duration) {
	seconds := func(p procfs.Proc) time.Duration {
		st, err := p.Stat()
		if err != nil {
			return 0
		}
		return time.Duration(st.CPUTime() * float64(time.Second))
	}
	if p, err := procfs.Self(); err == nil {
		self = seconds(p)
	}
	procs, _ := procfs.AllProcs()
	for _, p := range procs {
		if comm, err := p.Comm(); err != nil || comm != "postgres" {
			continue
		}
		args, err := p.CmdLine()
		if err != nil || len(args) == 0 {
			continue
		}
		if f := strings.Fields(strings.Join(args, " ")); len(f) >= 3 && f[0] == "postgres:" && f[2] == database {
			db += seconds(p)
		}
	}
	return self, db
}

// DatabaseName is the database a postgres:// URL names.
func DatabaseName(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(u.Path, "/")
}
