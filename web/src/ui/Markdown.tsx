import { useLayoutEffect, useMemo, useRef } from "react";
import { markdown, markdownInline } from "../lib/markdown";
import { paintMarks, type Mark } from "../lib/highlight";

/** Markdown shows question text (a stem, an option, an explanation) as
 * safe HTML: a block in a div, one line (inline) in a span. marks are
 * highlighted ranges of its text, painted over the rendered HTML. */
export function Markdown({ text, inline, className, marks, id }: { text: string; inline?: boolean; className?: string; marks?: Mark[]; id?: string }) {
  const ref = useRef<HTMLDivElement & HTMLSpanElement>(null);
  const html = useMemo(() => (inline ? markdownInline(text) : markdown(text)), [text, inline]);
  // The HTML is set here rather than through React so highlights can be
  // painted over it and taken off again by setting it afresh.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.innerHTML = html;
    if (marks?.length) paintMarks(el, marks);
  }, [html, marks]);
  const cls = ["md", className].filter(Boolean).join(" ");
  return inline ? <span ref={ref} id={id} className={cls} /> : <div ref={ref} id={id} className={cls} />;
}
