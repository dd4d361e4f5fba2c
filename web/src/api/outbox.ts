// Sends what the outbox (lib/outbox.ts) holds: a sitting's saves and its
// submission, flashcard reviews, as they would have been sent online.
import { api } from "./client";
import { isOffline, type Entry, type Outcome } from "../lib/outbox";

/** sendEntry sends one waiting write. A network failure, a 5xx, a 401 (the
 * token could not be refreshed yet) or a 429 is "try later"; a 409 with
 * Retry-After is another device's lock; any other refusal can never
 * succeed (the attempt was submitted meanwhile: its result is there), so it
 * is dropped. */
export async function sendEntry(e: Entry): Promise<Outcome> {
  let res: Response;
  try {
    res =
      e.kind === "progress"
        ? (await api.POST("/api/v1/attempts/progress", { params: { header: { "x-quiz-session": e.device } }, body: e.body })).response
        : e.kind === "submit"
          ? (await api.POST("/api/v1/attempts/{attempt_id}/submit", { params: { path: { attempt_id: e.attemptId } }, body: e.body })).response
          : (await api.POST("/api/v1/flashcards/cards/{card_id}/review", { params: { path: { card_id: e.card } }, body: e.body as never })).response;
  } catch (err) {
    if (isOffline(err)) return { kind: "offline" };
    throw err;
  }
  if (res.status === 409 && res.headers.get("Retry-After")) return { kind: "locked", retryAfter: Number(res.headers.get("Retry-After")) };
  if (res.status >= 500 || res.status === 401 || res.status === 429) return { kind: "offline" };
  return { kind: "sent" };
}
