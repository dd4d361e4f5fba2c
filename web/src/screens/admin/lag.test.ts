import { describe, expect, it } from "vitest";
import { duration, tone } from "./lag";

describe("the outbox screen's wording", () => {
  it("reads an age in the largest units that matter", () => {
    expect([0, 0.4, 12.6, 60, 184, 3600, 7500].map(duration)).toEqual(["0 s", "0 s", "13 s", "1 min", "3 min 4 s", "1 h", "2 h 5 min"]);
  });
  it("worries past a minute", () => {
    expect([0, 1, 60, 61].map(tone)).toEqual(["ok", "warn", "warn", "bad"]);
  });
});
