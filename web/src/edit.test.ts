import { describe, expect, it } from "vitest";
import { changed, lines, parseIds } from "./edit";

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
