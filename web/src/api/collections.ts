// A learner's own collections of questions, filed in folders.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type Collection = components["schemas"]["CollectionResponse"];
export type Folder = components["schemas"]["FolderResponse"];

export const useCollections = () =>
  useQuery({ queryKey: keys.collections.list(), queryFn: async () => must(await api.GET("/api/v1/collections", { params: { query: { limit: 200 } } })) ?? [] });

export const useFolders = () =>
  useQuery({ queryKey: keys.folders, queryFn: async () => must(await api.GET("/api/v1/folders", { params: { query: { limit: 200 } } })) ?? [] });

export const useCollection = (id: number) =>
  useQuery({
    queryKey: keys.collections.one(id),
    queryFn: async () => must(await api.GET("/api/v1/collections/{collection_id}", { params: { path: { collection_id: id } } })),
  });

// Folders count their collections and collections their questions: any
// change here reads both again.
const changes = [keys.collections.root, keys.folders];

export const useAddFolder = (onSuccess: () => void) =>
  useWrite(async (name: string) => must(await api.POST("/api/v1/folders", { body: { name } })), { changes, onSuccess });

export const useRenameFolder = (id: number, onSuccess: () => void) =>
  useWrite(async (name: string) => must(await api.PATCH("/api/v1/folders/{folder_id}", { params: { path: { folder_id: id } }, body: { name } })), {
    changes,
    onSuccess,
  });

export const useDeleteFolder = (id: number) =>
  useWrite(async () => ok(await api.DELETE("/api/v1/folders/{folder_id}", { params: { path: { folder_id: id } } })), { changes });

export const useAddCollection = (onSuccess: () => void) =>
  useWrite(async (body: { name: string; folder_id: number | null }) => must(await api.POST("/api/v1/collections", { body })), { changes, onSuccess });

export const useEditCollection = (id: number, onSuccess?: () => void) =>
  useWrite(
    async (body: { name?: string; folder_id?: number | null }) =>
      must(await api.PATCH("/api/v1/collections/{collection_id}", { params: { path: { collection_id: id } }, body })),
    { changes, onSuccess },
  );

// A deleted collection's own read is left alone: it is gone, not changed.
export const useDeleteCollection = (id: number, onSuccess: () => void) =>
  useWrite(async () => ok(await api.DELETE("/api/v1/collections/{collection_id}", { params: { path: { collection_id: id } } })), {
    changes: [keys.collections.list(), keys.folders],
    onSuccess,
  });

export const useFileQuestion = (questionId: number, onSuccess: (collection: number) => void) =>
  useWrite(
    async (collection: number) => {
      ok(await api.PUT("/api/v1/collections/{collection_id}/questions/{question_id}", { params: { path: { collection_id: collection, question_id: questionId } } }));
      return collection;
    },
    { changes, onSuccess },
  );

export const useUnfileQuestion = (collection: number) =>
  useWrite(
    async (question: number) =>
      ok(await api.DELETE("/api/v1/collections/{collection_id}/questions/{question_id}", { params: { path: { collection_id: collection, question_id: question } } })),
    { changes },
  );
