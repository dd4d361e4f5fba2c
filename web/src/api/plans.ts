// Study plans and exams: what a learner enrols in and sits, and what
// moderators draw and publish.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";
import { attemptStarted } from "./attempts";

export type Domain = components["schemas"]["BlueprintDomainItem"];

export const usePlans = () =>
  useQuery({ queryKey: keys.plans.list(), queryFn: async () => must(await api.GET("/api/v1/study-plans", { params: { query: { limit: 100 } } })) ?? [] });

export const usePlan = (id: number) =>
  useQuery({ queryKey: keys.plans.one(id), queryFn: async () => must(await api.GET("/api/v1/study-plans/{plan_id}", { params: { path: { plan_id: id } } })) });

const planChanges = [keys.plans.root];

export const useCreatePlan = (onSuccess: (id: number) => void) =>
  useWrite(
    async (body: { title: string; kind: "set" | "mixed"; description?: string; exam_date?: string }) => must(await api.POST("/api/v1/study-plans", { body })).id,
    { changes: planChanges, onSuccess },
  );

export const useDrawPlan = (onSuccess: (id: number) => void) =>
  useWrite(
    async (body: components["schemas"]["Post-study-plans-from-blueprintRequest"]) => must(await api.POST("/api/v1/study-plans/from-blueprint", { body })).id,
    { changes: planChanges, onSuccess },
  );

// Enrolling aims the learner's flashcard schedules at the plan's exam.
export const useEnrol = (id: number) =>
  useWrite(async () => must(await api.POST("/api/v1/study-plans/{plan_id}/enrol", { params: { path: { plan_id: id } } })), {
    changes: [...planChanges, keys.decks.root],
  });

export const usePublishPlan = (id: number) =>
  useWrite(async (on: boolean) => must(await api.PATCH("/api/v1/study-plans/{plan_id}/publish", { params: { path: { plan_id: id }, query: { published: on } } })), {
    changes: planChanges,
  });

export const useMarkRead = () =>
  useWrite(
    async ({ link, on }: { link: number; on: boolean }) =>
      ok(await api.POST("/api/v1/study-plans/reading/{link_id}/read", { params: { path: { link_id: link }, query: { read: on } } })),
    { changes: planChanges },
  );

export const useAddBlock = (id: number, onSuccess: () => void) =>
  useWrite(
    async (body: { title: string; question_ids: number[]; reading: { article_id: number }[] }) =>
      must(await api.POST("/api/v1/study-plans/{plan_id}/blocks", { params: { path: { plan_id: id } }, body })),
    { changes: planChanges, onSuccess },
  );

/** useStartBlock starts a block and gives the saved test to sit. */
export const useStartBlock = (onSuccess: (s: { quiz_id: number; mode: string }) => void) =>
  useWrite(
    async ({ block, mode }: { block: number; mode: "learning" | "timed" }) =>
      must(await api.POST("/api/v1/study-plans/blocks/{block_id}/start", { params: { path: { block_id: block }, query: { mode } } })),
    { changes: attemptStarted, onSuccess },
  );

export const useExams = () =>
  useQuery({ queryKey: keys.exams.list(), queryFn: async () => must(await api.GET("/api/v1/exams", { params: { query: { limit: 100 } } })) ?? [] });

export const useExam = (id: number) =>
  useQuery({ queryKey: keys.exams.one(id), queryFn: async () => must(await api.GET("/api/v1/exams/{exam_id}", { params: { path: { exam_id: id } } })) });

export const useExamResult = (id: number) =>
  useQuery({
    queryKey: keys.exams.result(id),
    retry: false,
    queryFn: async () => must(await api.GET("/api/v1/exam-results/{exam_id}", { params: { path: { exam_id: id } } })),
  });

export const useDrawExam = (onSuccess: () => void) =>
  useWrite(async (body: components["schemas"]["Post-examsRequest"]) => must(await api.POST("/api/v1/exams", { body })), { changes: [keys.exams.root], onSuccess });

export const usePublishExam = () =>
  useWrite(
    async ({ id, on }: { id: number; on: boolean }) => must(await api.PATCH("/api/v1/exams/{exam_id}/publish", { params: { path: { exam_id: id }, query: { published: on } } })),
    { changes: [keys.exams.root] },
  );

export const useStartExam = (onSuccess: (s: { quiz_id: number }) => void) =>
  useWrite(async (id: number) => must(await api.POST("/api/v1/exams/{exam_id}/start", { params: { path: { exam_id: id } } })), {
    changes: attemptStarted,
    onSuccess,
  });
