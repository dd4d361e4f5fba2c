// Question categories: one query, one shape. The cache holds the server's
// flat list; every screen reads it through useCategories, whose select
// gives the tree order with depths and a lookup by id.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type Category = components["schemas"]["QuestionCategoryBody"];
export type CategoryNode = Category & { depth: number };
export type CategoryTree = { nodes: CategoryNode[]; byId: Map<number, CategoryNode> };

/** treeOf orders the flat list as the tree reads: each category followed by
 * its subcategories, by name, with its depth. A parent that is missing
 * (never expected) leaves its children at the top. */
export function treeOf(all: Category[]): CategoryTree {
  const ids = new Set(all.map((c) => c.id));
  const kids = new Map<number | null, Category[]>();
  for (const c of all) {
    const p = c.parent_id != null && ids.has(c.parent_id) ? c.parent_id : null;
    kids.set(p, [...(kids.get(p) ?? []), c]);
  }
  const nodes: CategoryNode[] = [];
  const walk = (p: number | null, depth: number) => {
    for (const c of [...(kids.get(p) ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
      nodes.push({ ...c, depth });
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return { nodes, byId: new Map(nodes.map((n) => [n.id, n])) };
}

export const useCategories = () =>
  useQuery({
    queryKey: keys.categories,
    queryFn: async () => must(await api.GET("/api/v1/question-categories/")) ?? [],
    select: treeOf,
  });

// A category's questions and quizzes are counted on the category: filing
// changes the bank's listings too.
const changes = [keys.categories, keys.questions.root];

export const useCreateCategory = (onSuccess: (c: Category) => void) =>
  useWrite(async (body: { name: string; parent_id: number | null }) => must(await api.POST("/api/v1/question-categories/", { body })), {
    changes,
    onSuccess,
  });

export const useSaveCategory = (id: number, onSuccess: (c: Category) => void) =>
  useWrite(
    async (body: { name: string; parent_id: number | null }) =>
      must(await api.PATCH("/api/v1/question-categories/{cat_id}", { params: { path: { cat_id: id } }, body })),
    { changes, onSuccess },
  );

export const useDeleteCategory = (id: number, onSuccess: () => void) =>
  useWrite(
    async (moveTo: number | null) =>
      ok(await api.DELETE("/api/v1/question-categories/{cat_id}", { params: { path: { cat_id: id }, query: moveTo ? { move_to: moveTo } : {} } })),
    { changes, onSuccess },
  );
