package http

import (
	"context"

	"github.com/roundsedu/rounds/modules/bank/internal/app"
	"github.com/roundsedu/rounds/platform/auth"
	"github.com/roundsedu/rounds/platform/opt"
)

type customBlockInput struct {
	Body struct {
		Title            string   `json:"title,omitempty" required:"false" maxLength:"500" doc:"blank: \"Custom block: N questions\""`
		Mode             string   `json:"mode,omitempty" required:"false" enum:"timed,learning" default:"timed" doc:"learning is tutor mode: the answer side after each answer"`
		TimeLimitMinutes *int     `json:"time_limit_minutes" required:"false" nullable:"true" minimum:"1" maximum:"1440"`
		CategoryIDs      []int64  `json:"category_ids,omitempty" required:"false" maxItems:"100" doc:"each with its branch; none: every category"`
		Pools            []string `json:"pools,omitempty" required:"false" maxItems:"3" enum:"unused,incorrect,flagged" doc:"any of, by your history; none: every question you reach"`
		Count            int      `json:"count" minimum:"1" maximum:"200"`
	}
}

// CustomBlockBody answers POST /saved-tests/custom: the saved test built
// and how many questions matched before count was drawn from them.
type CustomBlockBody struct {
	SavedTestBody
	Available int `json:"available"`
}

type customBlockOutput struct{ Body CustomBlockBody }

type blockCountsInput struct {
	CategoryIDs []int64 `query:"category_ids" maxItems:"100" doc:"comma-separated; each with its branch"`
}

// BlockCountsBody is how many questions you reach fall in each pool.
type BlockCountsBody struct {
	Total     int `json:"total"`
	Unused    int `json:"unused"`
	Incorrect int `json:"incorrect"`
	Flagged   int `json:"flagged"`
}

type blockCountsOutput struct{ Body BlockCountsBody }

func (h *handlers) buildCustomBlock(ctx context.Context, in *customBlockInput) (*customBlockOutput, error) {
	b := in.Body
	z, available, err := h.svc.BuildCustomBlock(ctx, auth.MustFrom(ctx), app.CustomBlock{Title: b.Title, Mode: b.Mode,
		TimeLimitMinutes: opt.Deref(b.TimeLimitMinutes), CategoryIDs: b.CategoryIDs, Pools: b.Pools, Count: b.Count})
	if err != nil {
		return nil, err
	}
	return &customBlockOutput{Body: CustomBlockBody{SavedTestBody: toSavedTest(z), Available: available}}, nil
}

func (h *handlers) customBlockCounts(ctx context.Context, in *blockCountsInput) (*blockCountsOutput, error) {
	c, err := h.svc.CustomBlockCounts(ctx, auth.MustFrom(ctx), in.CategoryIDs)
	if err != nil {
		return nil, err
	}
	return &blockCountsOutput{Body: BlockCountsBody{Total: c.Total, Unused: c.Unused, Incorrect: c.Incorrect, Flagged: c.Flagged}}, nil
}
