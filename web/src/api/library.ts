// The library: published articles, the editor's reads and writes, figures
// and the AI jobs that write articles.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";
import { settled } from "../lib/edit";

export type Article = components["schemas"]["ArticleResponse"];
export type Figure = components["schemas"]["FigureResponse"];
export type SectionEdit = { id?: string; heading: string; markdown: string };
export type Status = "draft" | "review" | "published" | "archived";

export const useArticles = (query: { q?: string; editable?: boolean }) =>
  useQuery({
    queryKey: keys.articles.list(query),
    queryFn: async () => must(await api.GET("/api/v1/articles/", { params: { query: { ...query, limit: 100 } } })) ?? [],
  });

// Opening an article changes this list: never serve it from the cache.
export const useRecentArticles = () =>
  useQuery({ queryKey: keys.articles.recent(), staleTime: 0, queryFn: async () => must(await api.GET("/api/v1/articles/recent", { params: { query: { limit: 5 } } })) ?? [] });

export const useArticleBySlug = (slug: string) =>
  useQuery({ queryKey: keys.articles.bySlug(slug), queryFn: async () => must(await api.GET("/api/v1/articles/by-slug/{slug}", { params: { path: { slug } } })) });

export const usePreview = (slug: string | null) =>
  useQuery({
    queryKey: keys.articles.preview(slug ?? ""),
    enabled: slug !== null,
    staleTime: 60_000,
    queryFn: async () => must(await api.GET("/api/v1/articles/preview/{slug}", { params: { path: { slug: slug! } } })),
  });

export const useEditedArticle = (id: number) =>
  useQuery({ queryKey: keys.articles.edit(id), queryFn: async () => must(await api.GET("/api/v1/articles/{id}", { params: { path: { id } } })) });

export const useRevisions = (id: number) =>
  useQuery({
    queryKey: keys.articles.revisions(id),
    queryFn: async () => must(await api.GET("/api/v1/articles/{id}/revisions", { params: { path: { id }, query: { limit: 50 } } })) ?? [],
  });

// An article's text shows in the library, the editor and its revisions.
const changes = [keys.articles.root];

export const useStartArticle = (onSuccess: (a: Article) => void) =>
  useWrite(async (title: string) => must(await api.POST("/api/v1/articles/", { body: { title, sections: [{ heading: "Overview", markdown: "" }] } })), {
    changes,
    onSuccess,
  });

export const useSaveArticle = (id: number, onSuccess: (a: Article) => void) =>
  useWrite(
    async (body: { title: string; summary: string; slug: string; sections: SectionEdit[]; note?: string }) =>
      must(await api.PATCH("/api/v1/articles/{id}", { params: { path: { id } }, body })),
    { changes, onSuccess },
  );

export const useMoveArticle = (id: number, onSuccess: (a: Article) => void) =>
  useWrite(async (status: Status) => must(await api.PUT("/api/v1/articles/{id}/status", { params: { path: { id } }, body: { status } })), { changes, onSuccess });

export const useRestoreRevision = (id: number, onSuccess: (a: Article) => void) =>
  useWrite(
    async (rev: number) => must(await api.POST("/api/v1/articles/{id}/revisions/{revision_id}/restore", { params: { path: { id, revision_id: rev } } })),
    { changes, onSuccess },
  );

/** useMedia is the media library's images (moderators), newest first. */
export const useMedia = () =>
  useQuery({ queryKey: keys.media, queryFn: async () => must(await api.GET("/api/v1/media/", { params: { query: { kind: "image", limit: 100 } } })) ?? [] });

export const useFigures = (articleId: number) =>
  useQuery({ queryKey: keys.articles.figures(articleId), queryFn: async () => must(await api.GET("/api/v1/articles/{id}/figures", { params: { path: { id: articleId } } })) ?? [] });

// Placing a figure writes its line into the section: the article, its
// figures and the media library change.
const figureChanges = [keys.articles.root, keys.media];

export const useUploadFigure = (articleId: number, onSuccess: (f: Figure) => void) =>
  useWrite(
    async (body: FormData) =>
      must(await api.POST("/api/v1/articles/{id}/figures/image", { params: { path: { id: articleId } }, body: body as never, bodySerializer: () => body })),
    { changes: figureChanges, onSuccess },
  );

export const usePlaceFigure = (articleId: number, onSuccess: (f: Figure) => void) =>
  useWrite(
    async (body: { asset_id: number; section_id: string }) => must(await api.POST("/api/v1/articles/{id}/figures/existing", { params: { path: { id: articleId } }, body })),
    { changes: figureChanges, onSuccess },
  );

export const useUnlinkFigure = (articleId: number, onSuccess: () => void) =>
  useWrite(async (asset: number) => ok(await api.POST("/api/v1/media/{asset_id}/unlink", { params: { path: { asset_id: asset } }, body: { article_id: articleId } })), {
    changes: figureChanges,
    onSuccess,
  });

export const useCaption = (asset: components["schemas"]["AssetResponse"], onSuccess: () => void) =>
  useWrite(
    async (caption: string) =>
      must(
        await api.PATCH("/api/v1/media/{asset_id}", {
          params: { path: { asset_id: asset.id } },
          body: { caption, title: asset.title, credit: asset.source, source_url: asset.source_url, license: asset.license },
        }),
      ),
    { changes: figureChanges, onSuccess },
  );

/** useArticleJob polls one generation job until it settles. */
export const useArticleJob = (id: string | null) =>
  useQuery({
    queryKey: keys.articles.job(id ?? ""),
    enabled: id !== null,
    queryFn: async () => must(await api.GET("/api/v1/articles/jobs/{job_id}", { params: { path: { job_id: id! } } })),
    refetchInterval: (q) => (q.state.data && settled(q.state.data.status) ? false : 1000),
  });

export const useSources = () =>
  useQuery({ queryKey: keys.articles.sources(), staleTime: 300_000, queryFn: async () => must(await api.GET("/api/v1/articles/ai-sources")), select: (r) => r.sources ?? [] });

type AiBody = { instructions?: string; sources: string[] };

export const useAiDraft = (onSuccess: (job: string) => void) =>
  useWrite(async (body: AiBody & { title: string; category_id?: number }) => must(await api.POST("/api/v1/articles/ai-draft", { body })).job_id, {
    changes: [],
    onSuccess,
  });

export const useAiTool = (articleId: number, onSuccess: (job: { id: string; kind: "refine" | "cards" }) => void) =>
  useWrite(
    async ({ kind, body, section }: { kind: "refine" | "cards"; body: AiBody; section?: string }) => {
      const path = { params: { path: { id: articleId } } };
      const q =
        kind === "refine"
          ? must(await api.POST("/api/v1/articles/{id}/ai-refine", { ...path, body: { ...body, section_id: section } }))
          : must(await api.POST("/api/v1/articles/{id}/ai-cards", { ...path, body }));
      return { id: q.job_id, kind };
    },
    { changes: [], onSuccess },
  );
