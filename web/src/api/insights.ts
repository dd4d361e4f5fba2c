// The moderators' charts: the item map (facility against discrimination),
// a question's option choices, and the draft pipeline's counts.
import { useQuery } from "@tanstack/react-query";
import { api, must } from "./client";
import { keys } from "./keys";

export const useItemMap = () =>
  useQuery({ queryKey: keys.insights.itemMap, queryFn: async () => must(await api.GET("/api/v1/questions/analysis/map")) ?? [] });

/** useItemAnalysis is a question's analysis, every version, newest first. */
export const useItemAnalysis = (id: number | null) =>
  useQuery({
    queryKey: keys.insights.item(id ?? 0),
    enabled: id != null,
    queryFn: async () => must(await api.GET("/api/v1/questions/{question_id}/analysis", { params: { path: { question_id: id! } } })) ?? [],
  });

export const usePipeline = () => useQuery({ queryKey: keys.insights.pipeline, queryFn: async () => must(await api.GET("/api/v1/drafts/stats/pipeline")) });
