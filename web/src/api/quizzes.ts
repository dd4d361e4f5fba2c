// Quizzes: the list to sit, the trash, and the tests built from the bank.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, commas, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import { bankIds, type BankQuery } from "./questions";

export const useQuizzes = () => useQuery({ queryKey: keys.quizzes.list(), queryFn: async () => must(await api.GET("/api/v1/quizzes/")) ?? [] });

export const useQuizTrash = (limit: number, offset: number) =>
  useQuery({
    queryKey: keys.quizzes.trash(offset),
    placeholderData: keepPreviousData,
    queryFn: async () => must(await api.GET("/api/v1/quizzes/trash", { params: { query: { limit, offset } } })) ?? [],
  });

export const useRestoreQuiz = (onSuccess: (msg: string) => void) =>
  useWrite(async (id: number) => `Restored quiz “${must(await api.PATCH("/api/v1/quizzes/{quiz_id}/restore", { params: { path: { quiz_id: id } } })).title}”.`, {
    changes: [keys.quizzes.root],
    onSuccess,
  });

export const usePurgeQuiz = (onSuccess: (msg: string) => void) =>
  useWrite(
    async ({ id, title }: { id: number; title: string }) => (ok(await api.DELETE("/api/v1/quizzes/{quiz_id}/permanent", { params: { path: { quiz_id: id } } })), `Deleted quiz “${title}” for good.`),
    { changes: [keys.quizzes.root], onSuccess },
  );

/** maxSavedTest is POST /saved-tests' bound on question_ids. */
export const maxSavedTest = 200;

export type Build = { title: string; mode: "timed" | "learning"; minutes?: number; from: BankQuery | { category: number } };

/** useBuildTest makes a test and gives its quiz id. Moderators make an
 * unpublished quiz (POST /questions/from-bank, or the category's
 * create-quiz); everyone else a saved test of their own (POST
 * /saved-tests), which keeps only the questions open to them. */
export const useBuildTest = (moderator: boolean, onSuccess: (quizId: number, b: Build) => void) =>
  useWrite(
    async (b: Build) => {
      const base = { title: b.title, mode: b.mode, time_limit_minutes: b.mode === "timed" ? b.minutes : undefined };
      if (moderator && "category" in b.from)
        return must(await api.POST("/api/v1/question-categories/{cat_id}/create-quiz", { params: { path: { cat_id: b.from.category }, query: base } })).id;
      // The id list matches keyword text, as the bank's keyword mode does; a
      // category is the filter on its branch.
      const question_ids = await bankIds("category" in b.from ? { category_id: b.from.category } : b.from);
      if (moderator) return must(await api.POST("/api/v1/questions/from-bank", { body: { ...base, question_ids } })).id;
      // A saved test takes at most 200 questions: the first 200 listed.
      return must(await api.POST("/api/v1/saved-tests", { body: { ...base, question_ids: question_ids.slice(0, maxSavedTest) } })).id;
    },
    { changes: [keys.quizzes.root, keys.dashboard], onSuccess },
  );

export type Pool = "unused" | "incorrect" | "flagged";
export type CustomBlock = { categories: number[]; pools: Pool[]; count: number; mode: "timed" | "learning"; minutes?: number; title?: string };

/** useBlockCounts is how many questions the learner reaches in the
 * categories (all when none) are unused, incorrect and flagged. */
export const useBlockCounts = (categories: number[]) =>
  useQuery({
    queryKey: keys.blockCounts.of(categories),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      must(await api.GET("/api/v1/saved-tests/custom/counts", { params: { query: { category_ids: categories.length ? categories : undefined } }, querySerializer: commas })),
  });

/** useCustomBlock draws a block (POST /saved-tests/custom) and gives its quiz id. */
export const useCustomBlock = (onSuccess: (quizId: number, b: CustomBlock) => void) =>
  useWrite(
    async (b: CustomBlock) =>
      must(
        await api.POST("/api/v1/saved-tests/custom", {
          body: {
            title: b.title || undefined,
            mode: b.mode,
            time_limit_minutes: b.mode === "timed" ? b.minutes : undefined,
            category_ids: b.categories.length ? b.categories : undefined,
            pools: b.pools.length ? b.pools : undefined,
            count: b.count,
          },
        }),
      ).id,
    { changes: [keys.quizzes.root, keys.dashboard], onSuccess },
  );
