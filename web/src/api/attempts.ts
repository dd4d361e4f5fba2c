// Attempts: the dashboard's figures, one attempt as sat, everyone's
// answers to it, and the writes that start and finish a sitting.
import { useQuery } from "@tanstack/react-query";
import { api, must } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type AttemptDetail = components["schemas"]["AttemptDetail"];
export type AnswerDetail = components["schemas"]["AnswerResponse"];

export const useDashboard = () =>
  useQuery({ queryKey: keys.dashboard, queryFn: async () => must(await api.GET("/api/v1/attempts/stats/dashboard")) });

/** The dashboard's chart series over the last days; under the dashboard's
 * key, so whatever changes the dashboard changes them too. */
export const useCharts = (days = 365) =>
  useQuery({
    queryKey: keys.dashboardCharts(days),
    queryFn: async () => must(await api.GET("/api/v1/attempts/stats/charts", { params: { query: { days } } })),
  });

export const useAttempt = (id: number) =>
  useQuery({
    queryKey: keys.attempts.one(id),
    queryFn: async () => must(await api.GET("/api/v1/attempts/{attempt_id}", { params: { path: { attempt_id: id } } })),
  });

export const usePeers = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: keys.attempts.peers(id),
    enabled,
    // Everyone's figures count this sitting from its submitted event, a
    // moment after the submit: ask again for a while until it is in them.
    refetchInterval: (q) => (q.state.data?.sittings === 0 && q.state.dataUpdateCount < 20 ? 1000 : false),
    queryFn: async () => must(await api.GET("/api/v1/attempts/{attempt_id}/peers", { params: { path: { attempt_id: id } } })),
  });

/** What finishing an attempt changes: the dashboard's counts and recent
 * attempts, the attempt itself, the quizzes' and plans' and exams' progress,
 * what a custom block counts as unused, incorrect or flagged. */
export const attemptDone = (attemptId: number) => [keys.dashboard, keys.attempts.one(attemptId), keys.quizzes.root, keys.plans.root, keys.exams.root, keys.blockCounts.root];

/** What starting a sitting changes: a new attempt in progress. */
export const attemptStarted = [keys.dashboard, keys.plans.root];
