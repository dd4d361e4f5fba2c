/** Pager steps through a list a page at a time: "21–40 of 75". Without a
 * total (some listings have none) a full page is taken to mean there may be
 * more. Nothing shows when everything fits on one page. */
export function Pager({ label, offset, size, shown, total, onMove }: { label: string; offset: number; size: number; shown: number; total?: number; onMove: (o: number) => void }) {
  const more = total != null ? offset + shown < total : shown === size;
  if (offset === 0 && !more) return null;
  return (
    <nav className="actions pager" aria-label={`${label} pages`}>
      <button disabled={offset === 0} onClick={() => onMove(Math.max(0, offset - size))}>
        Previous
      </button>
      <span>
        {shown ? `${offset + 1}–${offset + shown}` : "none"}
        {total != null && ` of ${total}`}
      </span>
      <button disabled={!more} onClick={() => onMove(offset + size)}>
        Next
      </button>
    </nav>
  );
}
