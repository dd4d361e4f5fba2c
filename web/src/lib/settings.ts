// Checking a setting's new value before it is sent (unit-tested); the
// server judges it again.

export type Described = { label: string; kind: string; min?: number | null; max?: number | null };

/** settingError reads what was typed into a setting's field as the value
 * to send, or says why it cannot be sent. */
export function settingError(s: Described, typed: string): { value: unknown; error: string | null } {
  if (s.kind === "text") return { value: typed, error: null };
  if (s.kind === "number") {
    const t = typed.trim();
    const n = Number(t);
    if (t === "" || !Number.isFinite(n)) return { value: null, error: `${s.label} must be a number.` };
    if (!Number.isInteger(n)) return { value: null, error: `${s.label} must be a whole number.` };
    if ((s.min != null && n < s.min) || (s.max != null && n > s.max))
      return { value: null, error: `${s.label} must be from ${s.min ?? "–"} to ${s.max ?? "–"}.` };
    return { value: n, error: null };
  }
  try {
    return { value: JSON.parse(typed), error: null };
  } catch {
    return { value: null, error: `${s.label} must be valid JSON.` };
  }
}
