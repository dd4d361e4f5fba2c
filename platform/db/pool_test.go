package db

import (
	"runtime"
	"testing"

	"github.com/roundsedu/rounds/platform/config"
)

func TestPoolSize(t *testing.T) {
	auto := max(8, 4*runtime.GOMAXPROCS(0))
	for _, c := range []struct {
		cfg        config.Database
		open, idle int
	}{
		{config.Database{}, auto, auto},
		{config.Database{MaxOpenConns: 30}, 30, 30},
		{config.Database{MaxOpenConns: 30, MaxIdleConns: 5}, 30, 5},
		{config.Database{MaxOpenConns: 4, MaxIdleConns: 9}, 4, 4},
	} {
		if open, idle := PoolSize(c.cfg); open != c.open || idle != c.idle {
			t.Errorf("%+v: got %d/%d, want %d/%d", c.cfg, open, idle, c.open, c.idle)
		}
	}
}
