// Pure pieces of the sitting's tools (unit-tested in sittools.test.ts): the
// calculator's arithmetic, what this tab keeps per attempt (struck
// options, highlights, time per question) and the reading settings.
import type { Mark } from "./highlight";

/** calc evaluates + - * / ^ and parentheses over decimal numbers, with
 * unary minus; it throws a person's message on anything else. No eval. */
export function calc(expr: string): number {
  const s = expr.replace(/\s+/g, "").replace(/×/g, "*").replace(/÷/g, "/");
  if (s.length > 200) throw new Error("Too long");
  let i = 0;
  const peek = () => s[i];
  const num = (): number => {
    const m = /^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?/i.exec(s.slice(i));
    if (!m) throw new Error(i < s.length ? `Unexpected "${s[i]}"` : "Incomplete expression");
    i += m[0].length;
    return Number(m[0]);
  };
  const atom = (): number => {
    if (peek() === "-") return i++, -atom();
    if (peek() === "+") return i++, atom();
    if (peek() === "(") {
      i++;
      const v = sum();
      if (peek() !== ")") throw new Error("Missing )");
      i++;
      return v;
    }
    return num();
  };
  const power = (): number => {
    const b = atom();
    if (peek() === "^") return i++, b ** power();
    return b;
  };
  const product = (): number => {
    let v = power();
    while (peek() === "*" || peek() === "/") v = s[i++] === "*" ? v * power() : v / power();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === "+" || peek() === "-") v = s[i++] === "+" ? v + product() : v - product();
    return v;
  };
  const v = sum();
  if (i < s.length) throw new Error(`Unexpected "${s[i]}"`);
  if (!Number.isFinite(v)) throw new Error("Not a finite number");
  return Number(v.toPrecision(12));
}

/** What one tab keeps for one attempt while it is sat. */
export type SitMemory = {
  struck: Record<string, number[]>; // question id: struck option indexes
  marks: Record<string, Mark[]>; // question id: highlighted ranges of the stem
  seconds: Record<string, number>; // question id: time spent on it
};

const empty = (): SitMemory => ({ struck: {}, marks: {}, seconds: {} });

export const sitMemory = {
  read(store: Pick<Storage, "getItem">, attemptId: number): SitMemory {
    try {
      const v = JSON.parse(store.getItem(`rounds.sit.${attemptId}`) ?? "null");
      return v && typeof v === "object" ? { ...empty(), ...v } : empty();
    } catch {
      return empty();
    }
  },
  write(store: Pick<Storage, "setItem">, attemptId: number, m: SitMemory) {
    store.setItem(`rounds.sit.${attemptId}`, JSON.stringify(m));
  },
  forget(store: Pick<Storage, "removeItem">, attemptId: number) {
    store.removeItem(`rounds.sit.${attemptId}`);
  },
};

/** toggle adds n to the list or takes it out. */
export const toggle = (list: number[] | undefined, n: number) => ((list ?? []).includes(n) ? (list ?? []).filter((x) => x !== n) : [...(list ?? []), n].sort());

/** Reading settings, kept for every sitting on this device. */
export type Prefs = { size: number; contrast: boolean };
export const sizes = ["Small", "Normal", "Large", "Larger"];
export const prefs = {
  read(store: Pick<Storage, "getItem">): Prefs {
    try {
      const v = JSON.parse(store.getItem("rounds.sit.prefs") ?? "null");
      const size = Number.isInteger(v?.size) && v.size >= 0 && v.size < sizes.length ? v.size : 1;
      return { size, contrast: v?.contrast === true };
    } catch {
      return { size: 1, contrast: false };
    }
  },
  write(store: Pick<Storage, "setItem">, p: Prefs) {
    store.setItem("rounds.sit.prefs", JSON.stringify(p));
  },
};
