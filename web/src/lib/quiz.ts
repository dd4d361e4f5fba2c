// Pure helpers of the quiz screen (unit-tested in quiz.test.ts).

/** clock renders seconds as m:ss (h:mm:ss past an hour). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

export type KeyAction =
  | { kind: "answer"; index: number }
  | { kind: "move"; by: number }
  | { kind: "flag" }
  | { kind: "strike"; index: number }
  | { kind: "tool"; tool: "highlight" | "notes" | "calculator" | "bigger" | "smaller" | "labs" }
  | null;

/** keyAction maps a key press to an action for a question with n options:
 * 1-9 or a-i pick an option (with Shift, a-i strike it through), arrows or
 * j/k move, f flags, m marks (highlights) the selected text, n opens the note, =
 * the calculator, l the lab values, + and - change the text size. */
export function keyAction(key: string, n: number, shift = false): KeyAction {
  const k = key.toLowerCase();
  if (shift && /^[a-i]$/.test(k) && k.charCodeAt(0) - 97 < n) return { kind: "strike", index: k.charCodeAt(0) - 97 };
  const tools: Record<string, "highlight" | "notes" | "calculator" | "bigger" | "smaller" | "labs"> = { m: "highlight", n: "notes", "=": "calculator", "+": "bigger", "-": "smaller", l: "labs" };
  if (tools[k]) return { kind: "tool", tool: tools[k] };
  if (/^[1-9]$/.test(k) && Number(k) <= n) return { kind: "answer", index: Number(k) - 1 };
  if (/^[a-i]$/.test(k) && k !== "f" && k.charCodeAt(0) - 97 < n) return { kind: "answer", index: k.charCodeAt(0) - 97 };
  if (k === "arrowright" || k === "k") return { kind: "move", by: 1 };
  if (k === "arrowleft" || k === "j") return { kind: "move", by: -1 };
  if (k === "f") return { kind: "flag" };
  return null;
}

/** deviceID names this tab for the saved-progress lock (x-quiz-session). */
export function deviceID(store: Pick<Storage, "getItem" | "setItem">): string {
  let id = store.getItem("rounds.device");
  if (!id) {
    id = `web-${crypto.randomUUID()}`;
    store.setItem("rounds.device", id);
  }
  return id;
}

export type SaveState = "idle" | "saving" | "saved" | "offline";

/** saveLabel says where the answers are; offline, how many wait to be sent. */
export function saveLabel(s: SaveState, waiting: number): string {
  if (s === "offline") return `Offline — ${waiting} ${waiting === 1 ? "answer" : "answers"} waiting`;
  return { idle: "Not changed yet", saving: "Saving…", saved: "All answers saved" }[s];
}

/** PeerQuestion is how everyone answered one question (GET /attempts/{id}/peers). */
export type PeerQuestion = {
  responses: number;
  correct_rate?: number | null;
  options?: { option: string; chosen: number; rate: number }[] | null;
};

/** peerLine says how everyone answered a question, most chosen option
 * first; empty until someone other than the learner has answered it. */
export function peerLine(q: PeerQuestion): string {
  if (q.responses < 1) return "";
  const parts = [`${q.responses} ${q.responses === 1 ? "answer" : "answers"} from everyone`];
  if (q.correct_rate != null) parts.push(`${Math.round(q.correct_rate * 100)}% correct`);
  const opts = [...(q.options ?? [])].sort((a, b) => b.rate - a.rate);
  if (opts.length) parts.push(opts.map((o) => `${o.option}: ${Math.round(o.rate * 100)}%`).join(", "));
  return parts.join(" · ");
}

/** leftToCheck lists, by position (0-based), the questions still
 * unanswered and those flagged: what the end of a block shows first. */
export function leftToCheck(ids: number[], answers: Record<string, string>, flagged: Set<number>): { unanswered: number[]; flagged: number[] } {
  const unanswered: number[] = [];
  const marked: number[] = [];
  ids.forEach((id, i) => {
    if (answers[String(id)] === undefined || answers[String(id)] === "") unanswered.push(i);
    if (flagged.has(id)) marked.push(i);
  });
  return { unanswered, flagged: marked };
}
