// Highlights over rendered question text: a mark is a [start, end) range
// of the element's text (its text nodes in order), so it survives the HTML
// being rendered again and can be kept as plain numbers.

export type Mark = [number, number];

function textNodes(el: Node): Text[] {
  const out: Text[] = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) out.push(n as Text);
  return out;
}

/** offsetsOf turns a selection's range inside el into a mark, or null when
 * it is empty or reaches outside el. */
export function offsetsOf(el: Node, range: Range): Mark | null {
  if (range.collapsed || !el.contains(range.startContainer) || !el.contains(range.endContainer)) return null;
  const at = (node: Node, offset: number) => {
    const r = document.createRange();
    r.setStart(el, 0);
    r.setEnd(node, offset);
    return r.toString().length;
  };
  const start = at(range.startContainer, range.startOffset);
  const end = at(range.endContainer, range.endOffset);
  return end > start ? [start, end] : null;
}

/** addMark merges a new mark into the list (overlapping ones join). */
export function addMark(marks: Mark[], m: Mark): Mark[] {
  const all = [...marks, m].sort((a, b) => a[0] - b[0]);
  const out: Mark[] = [];
  for (const [s, e] of all) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** paintMarks wraps each mark's text in <mark class="hl">, splitting text
 * nodes at the marks' edges. */
export function paintMarks(el: Node, marks: Mark[]) {
  let pos = 0;
  for (const node of textNodes(el)) {
    const len = node.data.length;
    const from = pos;
    pos += len;
    // Cut this node at every mark edge inside it, wrap the covered pieces.
    let cur: Text = node;
    let curStart = from;
    for (const [s, e] of marks) {
      if (e <= curStart || s >= from + len) continue;
      const a = Math.max(s, curStart) - curStart;
      const b = Math.min(e, from + len) - curStart;
      const piece = a > 0 ? cur.splitText(a) : cur;
      const rest = b - a < piece.data.length ? piece.splitText(b - a) : null;
      const wrap = document.createElement("mark");
      wrap.className = "hl";
      piece.replaceWith(wrap);
      wrap.append(piece);
      if (!rest) break;
      cur = rest;
      curStart += b;
    }
  }
}
