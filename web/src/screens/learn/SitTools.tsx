// The sitting's tools beside the question: the note on it (the notes API),
// a calculator, and the reading settings (text size, contrast).
import { useEffect, useRef, useState } from "react";
import { useNotes } from "../../api/questions";
import { calc, sizes, type Prefs } from "../../lib/sittools";
import { NoteEditor } from "./Browse";

/** QuestionNote is the learner's note on the question, written in place. */
export function QuestionNote({ questionId }: { questionId: number }) {
  const notes = useNotes([questionId]);
  return (
    <section className="panel sit-note" aria-label="Your note">
      {notes.isPending ? <p aria-live="polite">Loading…</p> : <NoteEditor questionId={questionId} note={notes.data?.get(questionId)} />}
    </section>
  );
}

/** Calculator evaluates what is typed on Enter; its input takes focus. */
export function Calculator({ onClose }: { onClose: () => void }) {
  const [expr, setExpr] = useState("");
  const [out, setOut] = useState<{ ok: boolean; text: string } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const run = () => {
    try {
      setOut({ ok: true, text: `${expr} = ${calc(expr)}` });
    } catch (e) {
      setOut({ ok: false, text: (e as Error).message });
    }
  };
  return (
    <form className="panel calc" aria-label="Calculator" onSubmit={(e) => (e.preventDefault(), run())}>
      <label htmlFor="calc-input">Calculator: type a sum, then Enter (Escape closes)</label>
      <div className="row">
        <input id="calc-input" ref={input} inputMode="decimal" autoComplete="off" value={expr} onChange={(e) => setExpr(e.target.value)} onKeyDown={(e) => e.key === "Escape" && onClose()} />
        <button type="submit">=</button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <output htmlFor="calc-input" aria-live="polite" data-testid="calc-result" className={out && !out.ok ? "error" : undefined}>
        {out?.text}
      </output>
    </form>
  );
}

/** Reading is the text size and contrast switch. */
export function Reading({ p, onChange }: { p: Prefs; onChange: (p: Prefs) => void }) {
  return (
    <p className="actions reading" role="group" aria-label="Reading">
      <button onClick={() => onChange({ ...p, size: p.size - 1 })} disabled={p.size === 0} aria-label="A− smaller text (−)">
        A−
      </button>
      <span className="muted" data-testid="text-size">
        {sizes[p.size]}
      </span>
      <button onClick={() => onChange({ ...p, size: p.size + 1 })} disabled={p.size === sizes.length - 1} aria-label="A+ larger text (+)">
        A+
      </button>
      <button aria-pressed={p.contrast} onClick={() => onChange({ ...p, contrast: !p.contrast })}>
        High contrast
      </button>
    </p>
  );
}
