import { describe, expect, it } from "vitest";
import { settingError } from "./settings";

describe("settingError", () => {
  const quota = { label: "Tutor questions a day", kind: "number", min: 0, max: 1000000 };
  it("takes a whole number within the bounds", () => {
    expect(settingError(quota, " 25 ")).toEqual({ value: 25, error: null });
    expect(settingError(quota, "0")).toEqual({ value: 0, error: null });
  });
  it("says why another number cannot be sent", () => {
    expect(settingError(quota, "").error).toBe("Tutor questions a day must be a number.");
    expect(settingError(quota, "ten").error).toBe("Tutor questions a day must be a number.");
    expect(settingError(quota, "2.5").error).toBe("Tutor questions a day must be a whole number.");
    expect(settingError(quota, "-1").error).toBe("Tutor questions a day must be from 0 to 1000000.");
    expect(settingError(quota, "1000001").error).toBe("Tutor questions a day must be from 0 to 1000000.");
  });
  it("sends text as typed and reads JSON", () => {
    expect(settingError({ label: "Rerank model", kind: "text" }, "  x ")).toEqual({ value: "  x ", error: null });
    expect(settingError({ label: "Flags", kind: "json" }, '{"a":1}')).toEqual({ value: { a: 1 }, error: null });
    expect(settingError({ label: "Flags", kind: "json" }, "{").error).toBe("Flags must be valid JSON.");
  });
});
