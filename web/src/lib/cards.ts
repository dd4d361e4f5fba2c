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

/** soon says how long until a moment, short enough for a button: "<1 min",
 * "10 min", "5 h", "4 d", "3 mo", "1.2 y". */
export function soon(dueMs: number, nowMs: number): string {
  const min = (dueMs - nowMs) / 60_000;
  if (min < 1) return "<1 min";
  if (min < 60) return `${Math.round(min)} min`;
  const h = min / 60;
  if (h < 24) return `${Math.round(h)} h`;
  const d = h / 24;
  if (d < 31) return `${Math.round(d)} d`;
  if (d < 365) return `${Math.round(d / 30)} mo`;
  return `${(d / 365).toFixed(1)} y`;
}

/** aheadMs is how early a learning card may come back when nothing else
 * is left in the session (Anki's "learn ahead" limit). */
const aheadMs = 20 * 60_000;

/** Session is one visit's study: the queue as read, the cards in learning
 * steps that come back later in it, and how many grades were given. */
export type Session<T extends { card_id: number }> = { queue: T[]; later: { item: T; due: number }[]; reviewed: number };

export const session = <T extends { card_id: number }>(queue: T[]): Session<T> => ({ queue, later: [], reviewed: 0 });

/** nextCard is the card to show now: a learning card whose step has come,
 * else the next in the queue, else a learning card due within aheadMs. */
export function nextCard<T extends { card_id: number }>(s: Session<T>, now: number): T | null {
  const byDue = [...s.later].sort((a, b) => a.due - b.due);
  if (byDue[0] && byDue[0].due <= now) return byDue[0].item;
  if (s.queue.length) return s.queue[0];
  return byDue[0] && byDue[0].due <= now + aheadMs ? byDue[0].item : null;
}

/** graded takes a card out of the session; a grade that leaves it in a
 * learning step (due again today, scheduled 0 days) brings it back later
 * in the session, when the step has passed. */
export function graded<T extends { card_id: number }>(s: Session<T>, item: T, r: { due: string; scheduled_days: number }): Session<T> {
  const later = s.later.filter((l) => l.item.card_id !== item.card_id);
  if (r.scheduled_days === 0) later.push({ item, due: Date.parse(r.due) });
  return { queue: s.queue.filter((c) => c.card_id !== item.card_id), later, reviewed: s.reviewed + 1 };
}

/** undone puts the card of an undone grade first again (as the server now
 * has it). */
export function undone<T extends { card_id: number }>(s: Session<T>, item: T): Session<T> {
  return {
    queue: [item, ...s.queue.filter((c) => c.card_id !== item.card_id)],
    later: s.later.filter((l) => l.item.card_id !== item.card_id),
    reviewed: Math.max(0, s.reviewed - 1),
  };
}
