// Command rounds runs the Rounds service. With no subcommand it runs every
// role in one process (`rounds all`).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/migrations"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/platform/buildinfo"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
)

func main() {
	if err := rootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "rounds:", err)
		os.Exit(1)
	}
}

func rootCmd() *cobra.Command {
	var files []string
	load := func() (*config.Config, error) { return config.Load(files...) }

	root := &cobra.Command{
		Use:           "rounds",
		Short:         "Rounds: question bank and learning service",
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          func(cmd *cobra.Command, _ []string) error { return serve(cmd.Context(), load, app.RoleAll) },
	}
	root.PersistentFlags().StringSliceVar(&files, "config", nil,
		"extra YAML config files merged over config/default.yaml (comma-separated; later wins)")

	for _, r := range []struct {
		role  app.Role
		short string
	}{
		{app.RoleServe, "Serve the HTTP API"},
		{app.RoleWorker, "Run event subscribers and background jobs"},
		{app.RoleScheduler, "Run scheduled jobs (one leader among all schedulers)"},
		{app.RoleAll, "Run every role in one process (the default)"},
	} {
		role := r.role
		root.AddCommand(&cobra.Command{Use: string(role), Short: r.short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error { return serve(cmd.Context(), load, role) }})
	}
	root.AddCommand(&cobra.Command{
		Use: "migrate", Short: "Apply every module's database migrations", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := load()
			if err != nil {
				return err
			}
			log := app.NewLogger(cfg.Log)
			d, err := db.Open(cmd.Context(), cfg.Database, log)
			if err != nil {
				return err
			}
			defer d.Close()
			return db.Migrate(cmd.Context(), d, migrations.FS, log)
		},
	})
	root.AddCommand(&cobra.Command{
		Use: "version", Short: "Print the version", Args: cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) { fmt.Fprintln(cmd.OutOrStdout(), buildinfo.String()) },
	})
	root.AddCommand(&cobra.Command{
		Use: "pdf", Short: "Read one PDF for the server or a worker (their child process; a request on stdin)",
		Hidden: true, Args: cobra.NoArgs,
		Run: func(*cobra.Command, []string) { os.Exit(drafts.ReaderMain(os.Stdin, os.Stdout)) },
	})
	root.AddCommand(adminCommands(load)...)
	return root
}

// serve runs a role until SIGTERM or SIGINT, then shuts down gracefully.
func serve(ctx context.Context, load func() (*config.Config, error), role app.Role) error {
	cfg, err := load()
	if err != nil {
		return err
	}
	log := app.NewLogger(cfg.Log)
	log.Info("effective configuration", "config", config.Redacted(cfg))
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	if err := a.Start(ctx, role); err != nil {
		a.Close()
		return err
	}
	select {
	case <-ctx.Done():
		log.Info("shutting down", "reason", strings.ToLower(context.Cause(ctx).Error()))
	case <-a.Done():
	}
	return a.Stop()
}
