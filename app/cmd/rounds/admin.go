package main

import (
	"github.com/spf13/cobra"

	"github.com/roundsedu/rounds/platform/config"
)

// adminCommands are the operator commands modules offer (run once, exit).
func adminCommands(load func() (*config.Config, error)) []*cobra.Command {
	_ = load
	return nil
}
