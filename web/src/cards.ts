// Pure helpers of the flashcard screen (unit-tested in cards.test.ts).

export const ratings = ["again", "hard", "good", "easy"] as const;
export type Rating = (typeof ratings)[number];

/** gradeKey maps 1–4 to the four ratings once the answer shows. */
export function gradeKey(key: string): Rating | null {
  const n = Number(key);
  return Number.isInteger(n) && n >= 1 && n <= 4 ? ratings[n - 1] : null;
}

/** interval says when a card comes back, in words. */
export function interval(days: number): string {
  if (days <= 0) return "later today";
  if (days === 1) return "tomorrow";
  if (days < 31) return `in ${days} days`;
  if (days < 365) return `in ${Math.round(days / 30)} months`;
  return `in ${(days / 365).toFixed(1)} years`;
}

/** barClass buckets a day's reviews against the busiest day into ten
 * height classes (the CSP allows no style attribute). */
export function barClass(reviews: number, max: number): string {
  if (max <= 0 || reviews <= 0) return "h0";
  return `h${Math.max(1, Math.round((reviews / max) * 10))}`;
}
