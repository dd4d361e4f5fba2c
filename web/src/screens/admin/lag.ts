// How the outbox screen words a lag: an age a person reads at a glance and
// the tone that says whether to worry (past a minute is what the alert in
// docs/operations.md fires on).

/** duration is seconds as "0 s", "12 s", "3 min 4 s" or "2 h 5 min". */
export function duration(seconds: number) {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const m = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${m ? ` ${m} min` : ""}`;
}

/** tone is how a group's oldest waiting event reads: caught up, behind, or
 * stuck (over a minute: workers down, too few, or a handler retrying). */
export function tone(oldestSeconds: number): "ok" | "warn" | "bad" {
  if (oldestSeconds <= 0) return "ok";
  return oldestSeconds > 60 ? "bad" : "warn";
}
