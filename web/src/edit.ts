// Pure helpers of the editing screens (unit-tested).

export type Snapshot = {
  question_text: string;
  question_type: string;
  options?: string[] | null;
  correct_answer?: string | null;
  explanation?: string | null;
  key_points?: string[] | null;
  attending_tip?: string | null;
};

const labels: [keyof Snapshot, string][] = [
  ["question_text", "stem"],
  ["question_type", "type"],
  ["options", "options"],
  ["correct_answer", "answer"],
  ["explanation", "explanation"],
  ["key_points", "key points"],
  ["attending_tip", "tip"],
];

const norm = (v: unknown) => JSON.stringify(Array.isArray(v) ? v : (v ?? ""));

/** changed names the fields where an older version differs from the current one. */
export function changed(old: Snapshot, now: Snapshot): string[] {
  return labels.filter(([k]) => norm(old[k]) !== norm(now[k])).map(([, l]) => l);
}

/** lines splits a textarea into its non-empty lines (one option a line). */
export function lines(s: string): string[] {
  return s
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

/** parseIds reads "12, 13 14" as ids, dropping anything else. */
export function parseIds(s: string): number[] {
  return s
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}
