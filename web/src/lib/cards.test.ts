import { describe, expect, it } from "vitest";
import { barClass, gradeKey, graded, interval, nextCard, session, soon, undone } from "./cards";

describe("gradeKey", () => {
  it("maps 1-4 to the ratings and nothing else", () => {
    expect(gradeKey("1")).toBe("again");
    expect(gradeKey("4")).toBe("easy");
    expect(gradeKey("0")).toBeNull();
    expect(gradeKey("5")).toBeNull();
    expect(gradeKey(" ")).toBeNull();
    expect(gradeKey("g")).toBeNull();
  });
});

describe("interval", () => {
  it("says when in words", () => {
    expect(interval(0)).toBe("later today");
    expect(interval(1)).toBe("tomorrow");
    expect(interval(12)).toBe("in 12 days");
    expect(interval(90)).toBe("in 3 months");
    expect(interval(800)).toBe("in 2.2 years");
  });
});

describe("barClass", () => {
  it("scales to ten classes with a visible minimum", () => {
    expect(barClass(0, 10)).toBe("h0");
    expect(barClass(1, 100)).toBe("h1");
    expect(barClass(10, 10)).toBe("h10");
    expect(barClass(3, 0)).toBe("h0");
  });
});

describe("soon", () => {
  it("says how long until, in a few characters", () => {
    const now = 1_000_000;
    expect(soon(now + 20_000, now)).toBe("<1 min");
    expect(soon(now + 10 * 60_000, now)).toBe("10 min");
    expect(soon(now + 5 * 3_600_000, now)).toBe("5 h");
    expect(soon(now + 4 * 86_400_000, now)).toBe("4 d");
    expect(soon(now + 90 * 86_400_000, now)).toBe("3 mo");
    expect(soon(now + 400 * 86_400_000, now)).toBe("1.1 y");
  });
});

describe("a study session", () => {
  const a = { card_id: 1 };
  const b = { card_id: 2 };
  const at = (ms: number) => new Date(ms).toISOString();
  it("brings a card in a learning step back once its step has passed, or ahead when nothing else is left", () => {
    const now = Date.UTC(2030, 0, 1);
    let s = session([a, b]);
    expect(nextCard(s, now)).toBe(a);
    s = graded(s, a, { due: at(now + 60_000), scheduled_days: 0 }); // again: a minute
    expect(nextCard(s, now)).toBe(b);
    expect(nextCard(s, now + 61_000)).toBe(a);
    s = graded(s, b, { due: at(now + 4 * 86_400_000), scheduled_days: 4 }); // easy: days away, gone
    expect(s.reviewed).toBe(2);
    expect(nextCard(s, now)).toBe(a); // learned ahead: nothing else is left
    s = graded(s, a, { due: at(now + 3_600_000), scheduled_days: 0 }); // a step beyond the learn-ahead limit
    expect(nextCard(s, now)).toBeNull();
    expect(s.later).toHaveLength(1);
  });
  it("puts an undone card first again", () => {
    const now = Date.UTC(2030, 0, 1);
    let s = graded(session([a, b]), a, { due: at(now + 60_000), scheduled_days: 0 });
    s = undone(s, a);
    expect(s).toEqual({ queue: [a, b], later: [], reviewed: 0 });
    expect(nextCard(s, now)).toBe(a);
  });
});
