import { describe, expect, it } from "vitest";
import { changed, diff, fieldErrors, lines, parseIds, progress, settled } from "./edit";

const base = { question_text: "Q?", question_type: "mcq", options: ["a", "b"], correct_answer: "a", explanation: null };

describe("changed", () => {
  it("names nothing for the same content, null and empty alike", () => {
    expect(changed(base, { ...base, explanation: "" })).toEqual([]);
  });
  it("names each field that differs, options by order too", () => {
    expect(changed(base, { ...base, options: ["b", "a"], correct_answer: "b", question_text: "Q2?" })).toEqual(["stem", "options", "answer"]);
  });
});

describe("lines and ids", () => {
  it("drops blank lines and trims", () => expect(lines(" a \n\n b\n")).toEqual(["a", "b"]));
  it("reads ids by commas or spaces and drops junk", () => expect(parseIds("12, 13 x -1 1.5;14")).toEqual([12, 13, 14]));
});

describe("diff", () => {
  it("gives each differing field as it was and as it is, lists joined", () => {
    expect(diff(base, { ...base, options: ["a", "c"], image_path: "figures/x.png" })).toEqual([
      { field: "options", before: "a · b", after: "a · c" },
      { field: "image", before: "", after: "figures/x.png" },
    ]);
  });
});

describe("fieldErrors", () => {
  it("maps indexed and body-prefixed fields to their form field, the first problem kept", () => {
    const err = { fields: [
      { field: "options[1]", message: "option \"a\" appears twice" },
      { field: "options[3]", message: "later" },
      { field: "body.size", message: "too small" },
      { field: "figures[0].path", message: "a figure needs a path" },
    ] };
    expect(fieldErrors(err)).toEqual({ options: "option \"a\" appears twice", size: "too small", figures: "a figure needs a path" });
  });
  it("is empty for an error without fields, or none", () => {
    expect(fieldErrors(new Error("x"))).toEqual({});
    expect(fieldErrors(null)).toEqual({});
  });
});

describe("job progress", () => {
  it("shows the last step while running and the reason when failed", () => {
    expect(progress({ status: "pending" })).toBe("Queued…");
    expect(progress({ status: "running", steps: [{ name: "sources" }, { name: "model", detail: "writer-1" }] })).toBe("Working: model: writer-1…");
    expect(progress({ status: "failed", steps: [{ name: "model" }], error: "no article model configured" })).toBe("Failed: no article model configured");
    expect(progress({ status: "completed", steps: [{ name: "saved", detail: "draft article 4" }] })).toBe("Done (saved: draft article 4).");
  });
  it("knows which states are final", () => {
    expect(["pending", "running", "completed", "failed", "cancelled"].map(settled)).toEqual([false, false, true, true, true]);
  });
});
