package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/db"
)

// adminCommands are the operator commands modules offer (run once, exit).
func adminCommands(load func() (*config.Config, error)) []*cobra.Command {
	return []*cobra.Command{usersCommand(load), repairStuckDocumentsCommand(load)}
}

// usersCommand is `rounds users ...`: what an operator needs for the first
// administrator when the identity provider sends no groups.
func usersCommand(load func() (*config.Config, error)) *cobra.Command {
	users := &cobra.Command{Use: "users", Short: "Manage accounts (the first administrator)"}
	users.AddCommand(&cobra.Command{
		Use:   "promote EMAIL",
		Short: "Make the account with this email an administrator (created if nobody has signed in with it yet)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withIdentity(cmd.Context(), load, func(ctx context.Context, m *identity.Module) error {
				u, created, err := m.PromoteAdmin(ctx, args[0])
				if err != nil {
					return err
				}
				verb := "promoted"
				if created {
					verb = "created"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s administrator %s (id %d); they sign in through SSO with that address\n",
					verb, u.Email, u.ID)
				if m.RoleMappingOn() {
					fmt.Fprintln(cmd.OutOrStdout(), "warning: provider role mapping is on: their groups decide the role "+
						"again at their next sign-in (the last administrator is never demoted)")
				}
				return nil
			})
		},
	})
	users.AddCommand(&cobra.Command{
		Use:   "admins",
		Short: "List the administrators",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withIdentity(cmd.Context(), load, func(ctx context.Context, m *identity.Module) error {
				admins, err := m.Admins(ctx)
				if err != nil {
					return err
				}
				if len(admins) == 0 {
					fmt.Fprintln(cmd.OutOrStdout(), "no administrators yet: run `rounds users promote EMAIL`")
				}
				for _, a := range admins {
					fmt.Fprintf(cmd.OutOrStdout(), "%d\t%s\t%s\n", a.ID, a.Email, a.Name)
				}
				return nil
			})
		},
	})
	return users
}

// withIdentity opens the database and builds the identity module for one
// operator command.
func withIdentity(ctx context.Context, load func() (*config.Config, error), fn func(context.Context, *identity.Module) error) error {
	cfg, err := load()
	if err != nil {
		return err
	}
	log := app.NewLogger(cfg.Log)
	d, err := db.Open(ctx, cfg.Database, log)
	if err != nil {
		return err
	}
	defer d.Close()
	return fn(ctx, identity.New(identity.Deps{DB: d, Log: log, OIDC: cfg.OIDC, Config: cfg.Identity,
		ServiceName: cfg.Service.Name, PublicURL: cfg.Service.PublicURL}))
}

// repairStuckDocumentsCommand is `rounds repair-stuck-documents`: documents
// still processing after drafts.stuck_after (30 minutes) are moved to ready
// so a moderator can reprocess them.
func repairStuckDocumentsCommand(load func() (*config.Config, error)) *cobra.Command {
	return &cobra.Command{
		Use:   "repair-stuck-documents",
		Short: "Move documents stuck in processing (older than drafts.stuck_after) to ready so they can be reprocessed",
		Args:  cobra.NoArgs,
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
			ids, err := drafts.New(drafts.Deps{DB: d, Config: cfg.Drafts, Log: log}).RepairStuckDocuments(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "repaired %d stuck documents %v (older than %s)\n", len(ids), ids, cfg.Drafts.StuckAfter)
			return nil
		},
	}
}
