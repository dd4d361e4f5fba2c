import { describe, expect, it } from "vitest";
import { calc, prefs, sitMemory, toggle } from "./sittools";

const memStore = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};

describe("calc", () => {
  it("follows precedence, parentheses, powers and unary minus", () => {
    expect(calc("1 + 2 * 3")).toBe(7);
    expect(calc("(1 + 2) * 3")).toBe(9);
    expect(calc("2^3^2")).toBe(512);
    expect(calc("-4 + 10 / 4")).toBe(-1.5);
    expect(calc("140 - (0.5 * 70)")).toBe(105);
    expect(calc("0.1 + 0.2")).toBe(0.3);
    expect(calc("3 × 4 ÷ 2")).toBe(6);
  });
  it("refuses what it cannot read", () => {
    expect(() => calc("2 +")).toThrow("Incomplete expression");
    expect(() => calc("alert(1)")).toThrow('Unexpected "a"');
    expect(() => calc("(1 + 2")).toThrow("Missing )");
    expect(() => calc("1 / 0")).toThrow("Not a finite number");
  });
});

describe("sitting memory", () => {
  it("keeps strikes, marks and times per attempt", () => {
    const s = memStore();
    expect(sitMemory.read(s, 1)).toEqual({ struck: {}, marks: {}, seconds: {} });
    sitMemory.write(s, 1, { struck: { "5": [1] }, marks: { "5": [[0, 4]] }, seconds: { "5": 12 } });
    expect(sitMemory.read(s, 1).struck).toEqual({ "5": [1] });
    expect(sitMemory.read(s, 2).struck).toEqual({});
    sitMemory.forget(s, 1);
    expect(sitMemory.read(s, 1).seconds).toEqual({});
  });
  it("toggles", () => {
    expect(toggle(undefined, 2)).toEqual([2]);
    expect(toggle([2, 0], 1)).toEqual([0, 1, 2]);
    expect(toggle([0, 2], 2)).toEqual([0]);
  });
  it("reads settings with defaults for anything odd", () => {
    const s = memStore();
    expect(prefs.read(s)).toEqual({ size: 1, contrast: false });
    prefs.write(s, { size: 3, contrast: true });
    expect(prefs.read(s)).toEqual({ size: 3, contrast: true });
    s.setItem("rounds.sit.prefs", '{"size": 9}');
    expect(prefs.read(s)).toEqual({ size: 1, contrast: false });
  });
});
