// Turning PDFs into questions: documents (upload, processing, sections),
// extraction jobs, batches of drafts and the drafts themselves.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite, type ApiError } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";
import { accessToken } from "../auth";
import { settled } from "../lib/edit";

export type Document = components["schemas"]["DocumentResponse"];
export type Draft = components["schemas"]["DraftResponse"];
export type DraftEdit = components["schemas"]["PatchDraftInBody"];

export const useDocuments = () =>
  useQuery({ queryKey: keys.documents.list(), queryFn: async () => must(await api.GET("/api/v1/documents/", { params: { query: { limit: 100 } } })) ?? [] });

/** useDocument reads a document with its sections, again every second
 * while it is processing. */
export const useDocument = (id: number) =>
  useQuery({
    queryKey: keys.documents.one(id),
    queryFn: async () => must(await api.GET("/api/v1/documents/{document_id}", { params: { path: { document_id: id } } })),
    refetchInterval: (q) => (q.state.data?.status === "processing" ? 1000 : false),
  });

export const useDocumentSteps = (id: number, live: boolean) =>
  useQuery({
    queryKey: keys.documents.steps(id),
    queryFn: async () => must(await api.GET("/api/v1/documents/{document_id}/processing-steps", { params: { path: { document_id: id } } })),
    select: (r) => r.steps ?? [],
    refetchInterval: live ? 1000 : false,
  });

/** upload sends a PDF as multipart with the upload's progress (fetch has
 * none: XMLHttpRequest reports it), and gives the stored document. */
export async function upload(file: File, onProgress: (sent: number, total: number) => void): Promise<Document> {
  const token = await accessToken();
  const form = new FormData();
  form.append("file", file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/v1/documents/upload");
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(xhr.response as Document);
      const env = (xhr.response as ApiError | null)?.error;
      reject(Object.assign(new Error(env?.message ?? `${xhr.status} ${xhr.statusText}`), { status: xhr.status, fields: env?.fields ?? [] }));
    };
    xhr.onerror = () => reject(new Error("the upload did not reach the server"));
    xhr.send(form);
  });
}

export const useUpload = (onProgress: (sent: number, total: number) => void) =>
  useWrite(async (file: File) => upload(file, onProgress), { changes: [keys.documents.root] });

// A deleted document's own read is left alone: it is gone, not changed.
export const useDeleteDocument = (onSuccess: () => void) =>
  useWrite(async (id: number) => ok(await api.DELETE("/api/v1/documents/{document_id}", { params: { path: { document_id: id } } })), {
    changes: [keys.documents.list()],
    onSuccess,
  });

export const useAddSection = (doc: number, onSuccess: () => void) =>
  useWrite(
    async (body: { name: string; start_page: number; end_page: number }) =>
      must(await api.POST("/api/v1/documents/{document_id}/sections", { params: { path: { document_id: doc } }, body })),
    { changes: [keys.documents.one(doc)], onSuccess },
  );

export const useDeleteSection = (doc: number) =>
  useWrite(
    async (section: number) => ok(await api.DELETE("/api/v1/documents/{document_id}/sections/{section_id}", { params: { path: { document_id: doc, section_id: section } } })),
    { changes: [keys.documents.one(doc)] },
  );

/** useExtractionModels are the models an extraction may name (the
 * configured default first when none is registered). */
export const useExtractionModels = () =>
  useQuery({
    queryKey: keys.models.available("extraction"),
    queryFn: async () => must(await api.GET("/api/v1/admin/models/available", { params: { query: { task: "extraction" } } })) ?? [],
  });

export const useExtract = (onSuccess: (job: string) => void) =>
  useWrite(async (body: components["schemas"]["ExtractInBody"]) => must(await api.POST("/api/v1/drafts/extract", { body })).job_id, {
    changes: [],
    onSuccess,
  });

/** useExtraction polls an extraction job until it settles. */
export const useExtraction = (id: string | null) =>
  useQuery({
    queryKey: keys.drafts.job(id ?? ""),
    enabled: id !== null,
    queryFn: async () => must(await api.GET("/api/v1/quizzes/job/{job_id}", { params: { path: { job_id: id! } } })),
    refetchInterval: (q) => (q.state.data && settled(q.state.data.status) ? false : 1000),
  });

export const useBatches = (status: "open" | "closed") =>
  useQuery({
    queryKey: keys.drafts.batches(status),
    queryFn: async () => must(await api.GET("/api/v1/drafts/batches", { params: { query: { status, limit: 100 } } })) ?? [],
  });

export const useBatch = (id: number) =>
  useQuery({ queryKey: keys.drafts.batch(id), queryFn: async () => must(await api.GET("/api/v1/drafts/batches/{batch_id}", { params: { path: { batch_id: id } } })) });

export const useBatchDrafts = (id: number) =>
  useQuery({
    queryKey: keys.drafts.ofBatch(id),
    queryFn: async () => must(await api.GET("/api/v1/drafts/batches/{batch_id}/drafts", { params: { path: { batch_id: id }, query: { limit: 200 } } })) ?? [],
  });

// Accepting files drafts into the bank: the bank, its categories and the
// batch's counts change.
const reviewChanges = [keys.drafts.root, keys.questions.root, keys.categories];

export const useFileBatch = (id: number) =>
  useWrite(async (category_id: number) => must(await api.PATCH("/api/v1/drafts/batches/{batch_id}", { params: { path: { batch_id: id } }, body: { category_id } })), {
    changes: [keys.drafts.root],
  });

export const useAccept = (onSuccess: (n: number) => void) =>
  useWrite(async (ids: number[]) => must(await api.POST("/api/v1/drafts/accept", { body: { draft_ids: ids } })).accepted?.length ?? 0, {
    changes: reviewChanges,
    onSuccess,
  });

export const useReject = (onSuccess: (n: number) => void) =>
  useWrite(async (ids: number[]) => must(await api.POST("/api/v1/drafts/reject", { body: { draft_ids: ids } })).rejected?.length ?? 0, {
    changes: reviewChanges,
    onSuccess,
  });

export const useReopen = (onSuccess: () => void) =>
  useWrite(async (id: number) => must(await api.POST("/api/v1/drafts/{id}/reopen", { params: { path: { id } } })), { changes: reviewChanges, onSuccess });

export const useEditDraft = (id: number, onSuccess: (d: Draft) => void) =>
  useWrite(async (body: DraftEdit) => must(await api.PATCH("/api/v1/drafts/{id}", { params: { path: { id } }, body })), {
    changes: [keys.drafts.root],
    onSuccess,
  });
