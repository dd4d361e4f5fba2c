import { describe, expect, it } from "vitest";
import { level, width } from "./steps";

describe("chart steps", () => {
  it("shades a day by its share of the busiest day, nothing as 0", () => {
    expect([0, 1, 25, 26, 50, 99, 100].map((v) => level(v, 100))).toEqual([0, 1, 1, 2, 2, 4, 4]);
    expect(level(3, 0)).toBe(0);
  });
  it("widths a bar in 5% steps within 0-100", () => {
    expect([-5, 0, 2.4, 2.5, 49, 100, 130].map(width)).toEqual(["w-0", "w-0", "w-0", "w-1", "w-10", "w-20", "w-20"]);
  });
});
