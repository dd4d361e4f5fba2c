import { cloneElement, type ReactElement, type ReactNode } from "react";

// Small pieces every screen uses.
export const pct = (v: number | null | undefined) => (v == null ? "–" : `${Math.round(v)}%`);
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "–");

/** Status shows a query's loading and error states (nothing once it has data). */
export function Status({ q }: { q: { isPending: boolean; isError: boolean; error: Error | null } }) {
  if (q.isPending) return <p aria-live="polite">Loading…</p>;
  if (q.isError) return <p role="alert">Could not load: {q.error?.message}</p>;
  return null;
}

/** Failed shows a mutation's error, if any. */
export function Failed({ m }: { m: { error: Error | null } }) {
  return m.error ? (
    <p role="alert" className="error">
      {m.error.message}
    </p>
  ) : null;
}

/** Field is a labelled control with the server's complaint about it, if
 * any, shown beneath and tied to the control for screen readers. */
export function Field({ id, label, error, children }: { id: string; label: ReactNode; error?: string; children: ReactElement<Record<string, unknown>> }) {
  const errId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? errId : undefined })}
      {error && (
        <span id={errId} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
