// Share links: read-only links to a published quiz, article or deck.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export const useShareLinks = () =>
  useQuery({ queryKey: keys.shares.links(), queryFn: async () => must(await api.GET("/api/v1/share/links", { params: { query: { limit: 100 } } })) ?? [] });

export const useMakeLink = (onSuccess: (l: { token: string }) => void) =>
  useWrite(async (body: components["schemas"]["Post-share-linksRequest"]) => must(await api.POST("/api/v1/share/links", { body })), {
    changes: [keys.shares.root],
    onSuccess,
  });

export const useRevokeLink = () =>
  useWrite(async (id: number) => ok(await api.DELETE("/api/v1/share/links/{link_id}", { params: { path: { link_id: id } } })), { changes: [keys.shares.root] });

export type Shared = {
  title?: string;
  summary?: string;
  description?: string;
  mode?: string;
  sections?: { key: string; heading: string; html: string }[];
  questions?: { id: number; question_text: string; options?: string[]; correct_answer?: string; explanation?: string }[];
  cards?: { id: number; question: string; answer: string }[];
};

/** useShared opens a share link without signing in (no token is sent). */
export const useShared = (token: string) =>
  useQuery({
    queryKey: keys.shares.open(token),
    retry: false,
    queryFn: async () => {
      const r = await fetch(`/api/v1/share/open/${encodeURIComponent(token)}`);
      const body = await r.json().catch(() => null);
      if (!r.ok) throw new Error(body?.error?.message ?? `${r.status} ${r.statusText}`);
      return body as { kind: string; expires_at: string; with_answers: boolean; content: Shared };
    },
  });
