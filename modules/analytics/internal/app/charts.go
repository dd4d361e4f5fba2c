package app

import "context"

// mapItems caps the questions the item map draws (the most answered).
const mapItems = 2000

// ItemMap is the newest version of every question with enough responses
// to judge (min_responses, as the flags), its facility against its
// discrimination: the moderators' item map. Options are left out (a
// question's own analysis has them).
func (s *Service) ItemMap(ctx context.Context) ([]Item, error) {
	rows, err := s.store.LatestItems(ctx, s.cfg.MinResponses, mapItems)
	if err != nil {
		return nil, err
	}
	out := items(rows, nil)
	for i := range out {
		out[i].Options = nil
	}
	return out, nil
}
