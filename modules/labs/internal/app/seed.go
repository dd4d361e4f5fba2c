package app

import (
	"context"

	"github.com/roundsedu/rounds/modules/labs/internal/demo"
)

// seedLock serialises demo seeding across replicas starting together.
const seedLock = 7_470_517

// SeedDemo loads the demo table, published, when no value is stored, in
// one transaction; it reports whether it loaded anything. Every row goes
// through the same field rules as a moderator's.
func (s *Service) SeedDemo(ctx context.Context) (bool, error) {
	rows, err := demoRows()
	if err != nil {
		return false, err
	}
	seeded := false
	err = s.db.Tx(ctx, func(ctx context.Context) error {
		if err := s.store.Lock(ctx, seedLock); err != nil {
			return err
		}
		empty, err := s.store.Empty(ctx)
		if err != nil || !empty {
			return err
		}
		seeded = true
		return s.store.InsertAll(ctx, rows)
	})
	return seeded && err == nil, err
}

// demoRows checks the demo table against the field table.
func demoRows() ([]Value, error) {
	vs, err := demo.Values()
	if err != nil {
		return nil, err
	}
	out := make([]Value, 0, len(vs))
	for _, d := range vs {
		v, bad := clean(Input{Name: d.Name, Group: d.Group, ReferenceRange: d.Range, Units: d.Units,
			ConventionalRange: &d.ConvRange, ConventionalUnits: &d.ConvUnits, AgeGroup: d.AgeGroup,
			Specimen: d.Specimen, Source: d.Source, SourceURL: &d.SourceURL, IsPublished: true})
		if len(bad) > 0 {
			return nil, invalid(bad)
		}
		out = append(out, v)
	}
	return out, nil
}
