// Pure helpers of the editing screens (unit-tested).

export type Snapshot = {
  question_text: string;
  question_type: string;
  options?: string[] | null;
  correct_answer?: string | null;
  explanation?: string | null;
  option_explanations?: string[] | null;
  key_points?: string[] | null;
  attending_tip?: string | null;
  image_path?: string | null;
  explanation_image_path?: string | null;
};

const labels: [keyof Snapshot, string][] = [
  ["question_text", "stem"],
  ["question_type", "type"],
  ["options", "options"],
  ["correct_answer", "answer"],
  ["explanation", "explanation"],
  ["option_explanations", "option explanations"],
  ["key_points", "key points"],
  ["attending_tip", "tip"],
  ["image_path", "image"],
  ["explanation_image_path", "explanation image"],
];

const norm = (v: unknown) => JSON.stringify(Array.isArray(v) ? v : (v ?? ""));
const shown = (v: unknown) => (Array.isArray(v) ? v.join(" · ") : String(v ?? ""));

export type Change = { field: string; before: string; after: string };

/** diff lists the fields where an older version differs from the current
 * one, each as it was and as it is (lists joined for reading). */
export function diff(old: Snapshot, now: Snapshot): Change[] {
  return labels.filter(([k]) => norm(old[k]) !== norm(now[k])).map(([k, field]) => ({ field, before: shown(old[k]), after: shown(now[k]) }));
}

/** changed names the fields where an older version differs from the current one. */
export function changed(old: Snapshot, now: Snapshot): string[] {
  return diff(old, now).map((c) => c.field);
}

/** fieldErrors maps a refused save's field problems onto form fields:
 * "options[2]" is the options field's, "body.size" the size field's; the
 * first problem of a field is kept. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of (err as { fields?: { field: string; message: string }[] } | null)?.fields ?? []) {
    const key = f.field.replace(/^body\./, "").replace(/[[.].*$/, "");
    out[key] ??= f.message;
  }
  return out;
}

export type JobStep = { name: string; detail?: string };
export type JobState = { status: string; steps?: JobStep[] | null; error?: string };

/** settled tells a job that will not change any more. */
export const settled = (status: string) => status === "completed" || status === "failed" || status === "cancelled";

/** progress is a job's state in a line: its last step while it runs, its error when it failed. */
export function progress(job: JobState): string {
  const last = job.steps?.at(-1);
  const step = last ? `${last.name}${last.detail ? `: ${last.detail}` : ""}` : "";
  switch (job.status) {
    case "failed":
      return `Failed: ${job.error || "no reason given"}`;
    case "cancelled":
      return "Cancelled.";
    case "completed":
      return `Done${step ? ` (${step})` : ""}.`;
    case "pending":
      return "Queued…";
  }
  return `Working${step ? `: ${step}` : ""}…`;
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
