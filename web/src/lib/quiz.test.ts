import { describe, expect, it } from "vitest";
import { clock, deviceID, keyAction, leftToCheck, peerLine } from "./quiz";

describe("clock", () => {
  it("renders minutes and seconds, rounding up", () => {
    expect(clock(0)).toBe("0:00");
    expect(clock(59.2)).toBe("1:00");
    expect(clock(605)).toBe("10:05");
    expect(clock(3725)).toBe("1:02:05");
    expect(clock(-4)).toBe("0:00");
  });
});

describe("keyAction", () => {
  it("picks options by number or letter within range", () => {
    expect(keyAction("1", 4)).toEqual({ kind: "answer", index: 0 });
    expect(keyAction("4", 4)).toEqual({ kind: "answer", index: 3 });
    expect(keyAction("5", 4)).toBeNull();
    expect(keyAction("B", 4)).toEqual({ kind: "answer", index: 1 });
    expect(keyAction("e", 4)).toBeNull();
  });
  it("moves and flags", () => {
    expect(keyAction("ArrowRight", 4)).toEqual({ kind: "move", by: 1 });
    expect(keyAction("j", 4)).toEqual({ kind: "move", by: -1 });
    expect(keyAction("f", 9)).toEqual({ kind: "flag" });
    expect(keyAction("Enter", 4)).toBeNull();
  });
  it("strikes with Shift and opens the tools", () => {
    expect(keyAction("B", 4, true)).toEqual({ kind: "strike", index: 1 });
    expect(keyAction("E", 4, true)).toBeNull();
    expect(keyAction("h", 9)).toEqual({ kind: "answer", index: 7 });
    expect(keyAction("m", 4)).toEqual({ kind: "tool", tool: "highlight" });
    expect(keyAction("n", 4)).toEqual({ kind: "tool", tool: "notes" });
    expect(keyAction("=", 4)).toEqual({ kind: "tool", tool: "calculator" });
    expect(keyAction("+", 4)).toEqual({ kind: "tool", tool: "bigger" });
    expect(keyAction("-", 4)).toEqual({ kind: "tool", tool: "smaller" });
    expect(keyAction("l", 4)).toEqual({ kind: "tool", tool: "labs" });
  });
});

describe("deviceID", () => {
  it("is made once per store", () => {
    const m = new Map<string, string>();
    const store = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
    const a = deviceID(store);
    expect(a).toMatch(/^web-/);
    expect(deviceID(store)).toBe(a);
  });
});

describe("peerLine", () => {
  it("says nothing before anyone answered", () => {
    expect(peerLine({ responses: 0, correct_rate: null, options: [] })).toBe("");
  });
  it("gives the count, the correct rate and the options, most chosen first", () => {
    expect(
      peerLine({
        responses: 4,
        correct_rate: 0.75,
        options: [
          { option: "Haloperidol", chosen: 1, rate: 0.25 },
          { option: "Lithium", chosen: 3, rate: 0.75 },
        ],
      }),
    ).toBe("4 answers from everyone · 75% correct · Lithium: 75%, Haloperidol: 25%");
    expect(peerLine({ responses: 1, correct_rate: null })).toBe("1 answer from everyone");
  });
});

describe("leftToCheck", () => {
  it("lists unanswered and flagged questions by position", () => {
    const got = leftToCheck([10, 11, 12, 13], { "10": "A", "12": "" }, new Set([12, 13, 99]));
    expect(got).toEqual({ unanswered: [1, 2, 3], flagged: [2, 3] });
  });
});
