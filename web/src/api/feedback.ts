// Reports on questions (learners send them, moderators resolve them) and
// the tutor a learner asks about a question.
import { useQuery } from "@tanstack/react-query";
import { api, must, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type ReportType = components["schemas"]["Post-feedbackRequest"]["type"];
export type ChatMessage = components["schemas"]["ChatMessage"];

export const reportTypes: [ReportType, string][] = [
  ["wrong_answer", "The answer is wrong"],
  ["unclear", "The question is unclear"],
  ["typo", "A typo"],
  ["outdated", "Out of date"],
  ["broken_media", "An image does not show"],
  ["other", "Something else"],
];

export const useFeedbackQueue = (status: "open" | "resolved" | "dismissed") =>
  useQuery({ queryKey: keys.feedback.queue(status), queryFn: async () => must(await api.GET("/api/v1/feedback", { params: { query: { status, limit: 100 } } })) ?? [] });

export const useReport = (onSuccess: () => void) =>
  useWrite(
    async (body: { target_id: number; type: ReportType; text: string }) => must(await api.POST("/api/v1/feedback", { body: { kind: "question", ...body } })),
    { changes: [keys.feedback.root], onSuccess },
  );

export const useResolve = () =>
  useWrite(
    async ({ id, to, note }: { id: number; to: "resolved" | "dismissed"; note: string }) =>
      must(await api.PUT("/api/v1/feedback/{report_id}/resolve", { params: { path: { report_id: id } }, body: { status: to, note } })),
    { changes: [keys.feedback.root] },
  );

/** useAskTutor sends the conversation so far about a question; inside the
 * learner's own attempt the tutor may see the answer side too. */
export const useAskTutor = (onSuccess: (reply: components["schemas"]["ChatReply"], asked: ChatMessage[]) => void) =>
  useWrite(
    async ({ question, attempt, messages }: { question: number; attempt?: number; messages: ChatMessage[] }) =>
      must(await api.POST("/api/v1/teach/chat", { body: { question_id: question, attempt_id: attempt, messages } })),
    { changes: [], onSuccess: (r, v) => onSuccess(r, v.messages) },
  );
