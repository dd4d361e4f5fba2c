import { describe, expect, it } from "vitest";
import { treeOf, type Category } from "./categories";

const cat = (id: number, name: string, parent_id: number | null = null): Category => ({
  id,
  name,
  parent_id,
  description: null,
  question_count: 0,
  branch_question_count: 0,
  system_id: null,
  inherited_system_id: null,
});

describe("treeOf", () => {
  it("orders the flat list as the tree reads, by name, with depths and a lookup", () => {
    const t = treeOf([cat(3, "Vasculitis"), cat(4, "Small vessel", 3), cat(1, "Cardiology"), cat(5, "Large vessel", 3), cat(2, "Valves", 1)]);
    expect(t.nodes.map((n) => [n.name, n.depth])).toEqual([
      ["Cardiology", 0],
      ["Valves", 1],
      ["Vasculitis", 0],
      ["Large vessel", 1],
      ["Small vessel", 1],
    ]);
    expect(t.byId.get(5)?.name).toBe("Large vessel");
  });
  it("puts a category whose parent is missing at the top", () => {
    expect(treeOf([cat(2, "Orphan", 99)]).nodes.map((n) => [n.name, n.depth])).toEqual([["Orphan", 0]]);
  });
});
