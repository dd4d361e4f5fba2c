// The question bank: listings with the bank's filters, one question with
// its versions, favourites, notes, tags, the trash and the writes.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, commas, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type Question = components["schemas"]["QuestionBody"];
export type BankQuestion = components["schemas"]["BankQuestionBody"];
export type Note = components["schemas"]["NoteResponse"];
export type Mode = "keyword" | "semantic" | "hybrid";

/** BankQuery is the bank's filter set as the listing and the id list take it. */
export type BankQuery = {
  q?: string;
  category_ids?: number[];
  category_id?: number;
  tag_ids?: number[];
  favorites_only?: boolean;
  uncategorized?: boolean;
  search_mode?: Mode;
};

export const useBank = (query: BankQuery, limit: number, offset: number) =>
  useQuery({
    queryKey: keys.questions.bank({ ...query, limit, offset }),
    placeholderData: keepPreviousData,
    queryFn: async () => must(await api.GET("/api/v1/questions/bank", { params: { query: { ...query, limit, offset } }, querySerializer: commas })),
  });

/** bankIds lists every question id the filters match (keyword matching). */
export async function bankIds(query: BankQuery): Promise<number[]> {
  const { search_mode: _, ...q } = query;
  return must(await api.GET("/api/v1/questions/bank/ids", { params: { query: q }, querySerializer: commas })) ?? [];
}

export const useQuestion = (id: number) =>
  useQuery({ queryKey: keys.questions.one(id), queryFn: async () => must(await api.GET("/api/v1/questions/detail/{id}", { params: { path: { id } } })) });

export const useVersions = (id: number) =>
  useQuery({
    queryKey: keys.questions.versions(id),
    queryFn: async () => must(await api.GET("/api/v1/questions/detail/{id}/versions", { params: { path: { id }, query: { limit: 50 } } })) ?? [],
  });

export type QuestionFields = components["schemas"]["PatchQuestionInputBody"];

/** A question's content and filing show in the bank, in quizzes, in
 * collections and in the trash: a write reads them all again. */
const questionChanges = [keys.questions.root, keys.categories, keys.quizzes.root, keys.collections.root];

/** useSaveQuestion writes the content (a new version) when it changed and
 * the category (its own route, no version) when that changed. */
export const useSaveQuestion = (id: number, onSuccess: (q: Question | null) => void) =>
  useWrite(
    async ({ fields, category }: { fields: QuestionFields | null; category?: number | null }) => {
      const next = fields ? must(await api.PATCH("/api/v1/questions/{id}", { params: { path: { id } }, body: fields })) : null;
      if (category !== undefined) {
        const query = category ? { category_id: category } : {};
        must(await api.PATCH("/api/v1/questions/{id}/category", { params: { path: { id }, query } }));
      }
      return next;
    },
    { changes: questionChanges, onSuccess },
  );

export const useCreateQuestion = (onSuccess: (q: Question) => void) =>
  useWrite(async (body: components["schemas"]["CreateQuestionInputBody"]) => must(await api.POST("/api/v1/questions/create", { body })), {
    changes: questionChanges,
    onSuccess,
  });

export const useRestoreVersion = (id: number, onSuccess: () => void) =>
  useWrite(
    async (version: number) =>
      must(await api.POST("/api/v1/questions/detail/{question_id}/versions/{version_id}/restore", { params: { path: { question_id: id, version_id: version } } })),
    { changes: questionChanges, onSuccess },
  );

export const useTags = () =>
  useQuery({
    queryKey: keys.tags,
    staleTime: 300_000,
    queryFn: async () => must(await api.GET("/api/v1/tags")),
    select: (t) => [...(t.subjects ?? []), ...(t.diseases ?? []), ...(t.systems ?? [])],
  });

export const useFavourites = () =>
  useQuery({ queryKey: keys.favourites, queryFn: async () => must(await api.GET("/api/v1/favorites")) ?? [], select: (ids) => new Set(ids) });

/** A learner's bank is partly their favourites: a star changes it too. */
export const useToggleFavourite = (questionId: number) =>
  useWrite(
    async (favourite: boolean) => {
      if (favourite) ok(await api.DELETE("/api/v1/favorites/{question_id}", { params: { path: { question_id: questionId } } }));
      else must(await api.POST("/api/v1/favorites", { body: { question_id: questionId } }));
    },
    { changes: [keys.favourites, keys.questions.root] },
  );

export const useNotes = (ids: number[]) =>
  useQuery({
    queryKey: keys.notes.of(ids),
    enabled: ids.length > 0,
    queryFn: async () => must(await api.GET("/api/v1/notes", { params: { query: { question_ids: ids.join(","), limit: ids.length } } })) ?? [],
    select: (notes) => new Map(notes.map((n) => [n.question_id, n])),
  });

export const useSaveNote = (questionId: number, onSuccess: () => void) =>
  useWrite(async (body: string) => must(await api.PUT("/api/v1/notes/{question_id}", { params: { path: { question_id: questionId } }, body: { body } })), {
    changes: [keys.notes.root],
    onSuccess,
  });

export const useDeleteNote = (questionId: number) =>
  useWrite(async () => ok(await api.DELETE("/api/v1/notes/{question_id}", { params: { path: { question_id: questionId } } })), {
    changes: [keys.notes.root],
  });

export const useQuestionTrash = (limit: number, offset: number) =>
  useQuery({
    queryKey: keys.questions.trash(offset),
    placeholderData: keepPreviousData,
    queryFn: async () => must(await api.GET("/api/v1/questions/trash", { params: { query: { limit, offset } } })),
  });

export const useRestoreQuestion = (onSuccess: (msg: string) => void) =>
  useWrite(async (id: number) => `Restored question ${must(await api.PATCH("/api/v1/questions/{id}/restore", { params: { path: { id } } })).id}.`, {
    changes: questionChanges,
    onSuccess,
  });

export const usePurgeQuestion = (onSuccess: (msg: string) => void) =>
  useWrite(async (id: number) => (ok(await api.DELETE("/api/v1/questions/{id}/permanent", { params: { path: { id } } })), `Deleted question ${id} for good.`), {
    changes: [keys.questions.root],
    onSuccess,
  });
