// Administration: AI models, site settings, people and their roles, AI
// usage, the contact inbox and the event outbox's lag.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";
import type { Role } from "./account";

export type Setting = components["schemas"]["SettingDescription"];
export type SettingValue = string | number | boolean | null | object;

export const useModels = () => useQuery({ queryKey: keys.models.all(), queryFn: async () => must(await api.GET("/api/v1/admin/models")) ?? [] });

// A model's row, default flag or activity changes what every task picks.
const modelChanges = [keys.models.root];

export const useAddModel = (onSuccess: () => void) =>
  useWrite(async (body: components["schemas"]["Post-admin-modelsRequest"]) => must(await api.POST("/api/v1/admin/models", { body })), {
    changes: modelChanges,
    onSuccess,
  });

export const useUpdateModel = () =>
  useWrite(
    async ({ id, body }: { id: number; body: { is_active?: boolean; is_default?: boolean } }) =>
      must(await api.PUT("/api/v1/admin/models/{model_id}", { params: { path: { model_id: id } }, body })),
    { changes: modelChanges },
  );

export const useRemoveModel = () =>
  useWrite(async (id: number) => ok(await api.DELETE("/api/v1/admin/models/{model_id}", { params: { path: { model_id: id } } })), { changes: modelChanges });

export const useTestModel = (onSuccess: (message: string) => void) =>
  useWrite(async (id: number) => must(await api.POST("/api/v1/admin/models/{model_id}/test", { params: { path: { model_id: id } } })).message, {
    changes: [],
    onSuccess,
  });

export const useSettings = () =>
  useQuery({ queryKey: keys.settings.values(), queryFn: async () => must(await api.GET("/api/v1/admin/settings")) as Record<string, SettingValue> });

export const useSettingsSchema = () =>
  useQuery({ queryKey: keys.settings.schema(), queryFn: async () => must(await api.GET("/api/v1/admin/settings/schema")) ?? [] });

export const useSaveSetting = (onSuccess: (key: string) => void) =>
  useWrite(
    async ({ key, value }: { key: string; value: SettingValue }) => {
      must(await api.PUT("/api/v1/admin/settings", { body: { [key]: value } }));
      return key;
    },
    { changes: [keys.settings.root], onSuccess },
  );

export const usePeople = (enabled = true) =>
  useQuery({
    queryKey: keys.people,
    enabled,
    queryFn: async () => must(await api.GET("/api/v1/admin/users", { params: { query: { limit: 200 } } })) ?? [],
  });

export const useSetRole = () =>
  useWrite(
    async ({ id, role }: { id: number; role: Role }) => must(await api.PUT("/api/v1/admin/users/{user_id}/role", { params: { path: { user_id: id } }, body: { role } })),
    { changes: [keys.people] },
  );

export const useUsage = (days: number) =>
  useQuery({ queryKey: keys.usage(days), queryFn: async () => must(await api.GET("/api/v1/admin/ai/usage", { params: { query: { days, limit: 200 } } })) ?? [] });

export const useMessages = (unread: boolean) =>
  useQuery({
    queryKey: keys.messages.list(unread),
    queryFn: async () => must(await api.GET("/api/v1/contact/submissions", { params: { query: { unread, limit: 100 } } })) ?? [],
  });

export const useMarkRead = () =>
  useWrite(async (id: number) => must(await api.PUT("/api/v1/contact/submissions/{submission_id}/read", { params: { path: { submission_id: id } } })), {
    changes: [keys.messages.root],
  });

/** useDailyUsage is model calls and tokens per UTC day and task. */
export const useDailyUsage = (days: number) =>
  useQuery({ queryKey: keys.dailyUsage(days), queryFn: async () => must(await api.GET("/api/v1/admin/ai/usage/daily", { params: { query: { days } } })) });

export type Outbox = components["schemas"]["OutboxResponse"];

/** useOutbox is each consumer group's lag now, read again every 10 s while
 * the screen is open (the figure changes by itself). */
export const useOutbox = () =>
  useQuery({ queryKey: keys.outbox, queryFn: async () => must(await api.GET("/api/v1/admin/outbox")), refetchInterval: 10_000 });
