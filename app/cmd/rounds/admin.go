package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/roundsedu/rounds/app"
	"github.com/roundsedu/rounds/modules/drafts"
	"github.com/roundsedu/rounds/modules/identity"
	"github.com/roundsedu/rounds/platform/config"
	"github.com/roundsedu/rounds/platform/module"
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
			return withModule(cmd.Context(), load, func(ctx context.Context, m *identity.Module) error {
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
			return withModule(cmd.Context(), load, func(ctx context.Context, m *identity.Module) error {
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

// withModule builds the service (nothing starts: no listener, worker or
// scheduler) for one operator command and hands it the module of type T.
func withModule[T module.Module](ctx context.Context, load func() (*config.Config, error), fn func(context.Context, T) error) error {
	cfg, err := load()
	if err != nil {
		return err
	}
	a, err := app.New(ctx, cfg, app.NewLogger(cfg.Log))
	if err != nil {
		return err
	}
	defer a.Close()
	return fn(ctx, app.Lookup[T](a))
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
			return withModule(cmd.Context(), load, func(ctx context.Context, m *drafts.Module) error {
				ids, err := m.RepairStuckDocuments(ctx)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "repaired %d stuck documents %v (older than %s)\n",
					len(ids), ids, m.StuckAfter())
				return nil
			})
		},
	}
}
