// Lab reference values: the learners' table (also the sitting's side
// panel) and the moderators' every value, drafts included.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type LabValue = components["schemas"]["LabValue"];
export type LabRecord = components["schemas"]["LabValueRecord"];

export const useLabs = (drafts = false) =>
  useQuery({
    queryKey: keys.labs.table(drafts),
    staleTime: 300_000,
    queryFn: async () => must(await api.GET("/api/v1/study-tools/lab-values", { params: { query: drafts ? { include_drafts: true } : {} } })),
  });

export const useSaveLab = (onSuccess: (v: LabValue) => void) =>
  useWrite(
    async ({ id, body }: { id: number | null; body: LabRecord }) =>
      id
        ? must(await api.PUT("/api/v1/study-tools/lab-values/{id}", { params: { path: { id } }, body }))
        : must(await api.POST("/api/v1/study-tools/lab-values", { body })),
    { changes: [keys.labs.root], onSuccess },
  );

export const useDeleteLab = (onSuccess: (v: LabValue) => void) =>
  useWrite(async (v: LabValue) => (ok(await api.DELETE("/api/v1/study-tools/lab-values/{id}", { params: { path: { id: v.id } } })), v), {
    changes: [keys.labs.root],
    onSuccess,
  });
