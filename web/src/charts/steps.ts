// The steps the charts draw in: fills and widths are classes (the CSP
// allows no inline style), so values become one of a few classes.

/** level buckets a day's count into 0-4 against the busiest day. */
export function level(v: number, most: number) {
  if (v <= 0 || most <= 0) return 0;
  return Math.min(4, Math.ceil((v / most) * 4));
}

/** width is a 0-100 value as one of the 21 width classes (5% steps). */
export const width = (v: number) => `w-${Math.max(0, Math.min(20, Math.round(v / 5)))}`;
