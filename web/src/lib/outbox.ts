// The outbox: writes that must not be lost when the network drops (a
// sitting's saves and its submission, flashcard reviews) wait in IndexedDB and are sent in the
// order they were made, one at a time, once the network is back. A save
// carries the full answers and flags with its revision (the time it was made), so
// the server's revision rule keeps a stale one from overwriting a newer
// one, and its device id, so the device lock applies as it would online.
import { openDB, type IDBPDatabase } from "idb";

export type ProgressSave = {
  kind: "progress";
  attemptId: number;
  device: string;
  /** The question whose answer this save changed, if it changed one. */
  answered?: string;
  body: { quiz_id: number; attempt_id: number; answers: Record<string, string>; flagged: number[]; current_idx: number; mode: string; revision: number };
};
/** A submission made offline: queued behind the attempt's saves, so it
 * goes once they have. */
export type Submission = { kind: "submit"; attemptId: number; body: { answers: Record<string, string>; flagged: number[] } };
export type CardReview = { kind: "review"; card: number; body: { rating: string; duration_ms: number; answer?: string } };
export type Entry = ProgressSave | Submission | CardReview;
type Stored = Entry & { seq: number };

/** What sending one entry came to: sent (or refused for good: dropped),
 * offline (stop, try later) or locked (another device holds the attempt:
 * stop until the screen takes over). */
export type Outcome = { kind: "sent" } | { kind: "offline" } | { kind: "locked"; retryAfter: number };
export type Sender = (e: Entry) => Promise<Outcome>;

let db: Promise<IDBPDatabase> | null = null;
const open = () =>
  (db ??= openDB("rounds-outbox", 1, {
    upgrade(d) {
      d.createObjectStore("entries", { keyPath: "seq", autoIncrement: true });
    },
  }));

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

/** onOutbox calls l whenever entries are added or sent. */
export function onOutbox(l: () => void) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

/** enqueue adds an entry at the end. */
export async function enqueue(e: Entry) {
  await (await open()).add("entries", e);
  changed();
}

/** pending lists the entries waiting, oldest first. */
export async function pending(): Promise<Stored[]> {
  return (await (await open()).getAll("entries")) as Stored[];
}

/** waitingAnswers counts the questions whose answers wait for an attempt. */
export function waitingAnswers(entries: Entry[], attemptId: number): number {
  return new Set(entries.flatMap((e) => (e.kind === "progress" && e.attemptId === attemptId && e.answered ? [e.answered] : []))).size;
}

/** latestSave is the newest waiting save of an attempt (what this device
 * last had), or undefined. */
export function latestSave(entries: Entry[], attemptId: number): ProgressSave | undefined {
  return entries.filter((e): e is ProgressSave => e.kind === "progress" && e.attemptId === attemptId).pop();
}

/** submissionWaits tells whether an attempt's submission is queued. */
export const submissionWaits = (entries: Entry[], attemptId: number) => entries.some((e) => e.kind === "submit" && e.attemptId === attemptId);

let flushing: Promise<Outcome> | null = null;

/** flush sends the waiting entries in order (one flush at a time); it stops
 * at the first that cannot be sent now and says why. */
export function flush(send: Sender): Promise<Outcome> {
  flushing ??= (async (): Promise<Outcome> => {
    const d = await open();
    for (;;) {
      const first = (await d.getAll("entries", undefined, 1))[0] as Stored | undefined;
      if (!first) return { kind: "sent" };
      const out = await send(first);
      if (out.kind !== "sent") return out;
      await d.delete("entries", first.seq);
      changed();
    }
  })().finally(() => (flushing = null));
  return flushing;
}

/** isOffline tells a failed fetch (no answer at all) from a refusal. */
export const isOffline = (e: unknown) => e instanceof TypeError || !navigator.onLine;
