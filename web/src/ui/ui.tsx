import { cloneElement, type ReactElement, type ReactNode } from "react";

// Small pieces every screen uses.
export const pct = (v: number | null | undefined) => (v == null ? "–" : `${Math.round(v)}%`);
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "–");
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

type QueryState = { isPending: boolean; isError: boolean; error: Error | null; refetch?: () => unknown };

/** Status shows a query's loading and error states (nothing once it has
 * data); a failed read offers to try again. */
export function Status({ q, what }: { q: QueryState; what?: string }) {
  if (q.isPending) return <p aria-live="polite">Loading…</p>;
  if (q.isError)
    return (
      <p role="alert" className="error">
        Could not load{what ? ` ${what}` : ""}: {q.error?.message}{" "}
        {q.refetch && (
          <button type="button" onClick={() => void q.refetch!()}>
            Try again
          </button>
        )}
      </p>
    );
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
 * any, shown beneath and tied to the control for screen readers; hint is a
 * line of help under the label, tied to the control too. */
export function Field({ id, label, error, hint, children }: { id: string; label: ReactNode; error?: string; hint?: ReactNode; children: ReactElement<Record<string, unknown>> }) {
  const errId = `${id}-error`;
  const hintId = `${id}-hint`;
  const described = [hint ? hintId : "", error ? errId : ""].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {cloneElement(children, { id, "aria-invalid": error ? true : undefined, "aria-describedby": described || undefined })}
      {error && (
        <span id={errId} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** Submit is a form's buttons: its primary submit (off while the write
 * runs or when disabled), a second button beside it when given (Cancel,
 * Discard changes), then the write's failure. */
export function Submit({ m, label, disabled, other }: { m: { isPending: boolean; error: Error | null }; label: string; disabled?: boolean; other?: { label: string; onClick: () => void } }) {
  return (
    <>
      <p className="actions">
        <button type="submit" className="primary" disabled={disabled || m.isPending}>
          {label}
        </button>
        {other && (
          <button type="button" onClick={other.onClick}>
            {other.label}
          </button>
        )}
      </p>
      <Failed m={m} />
    </>
  );
}
