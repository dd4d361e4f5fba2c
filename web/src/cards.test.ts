import { describe, expect, it } from "vitest";
import { barClass, gradeKey, interval } from "./cards";

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
