// Editorial grants: what part of the content a learner may edit.
import { useQuery } from "@tanstack/react-query";
import { api, must, ok, useWrite } from "./client";
import { keys } from "./keys";
import type { components } from "./schema";

export type Grant = components["schemas"]["GrantResponse"];
export type Kind = components["schemas"]["GiveGrantInputBody"]["kind"];

export const useGrants = (user: number) =>
  useQuery({
    queryKey: keys.grants(user),
    retry: false,
    queryFn: async () => must(await api.GET("/api/v1/access/{user_id}/grants", { params: { path: { user_id: user } } })) ?? [],
  });

export const useGiveGrant = (user: number, onSuccess: (g: Grant) => void) =>
  useWrite(
    async (body: components["schemas"]["GiveGrantInputBody"]) => must(await api.POST("/api/v1/access/{user_id}/grants", { params: { path: { user_id: user } }, body })),
    { changes: [keys.grants(user)], onSuccess },
  );

export const useRevokeGrant = (user: number, onSuccess: (id: number) => void) =>
  useWrite(
    async (grant_id: number) => (ok(await api.DELETE("/api/v1/access/{user_id}/grants/{grant_id}", { params: { path: { user_id: user, grant_id } } })), grant_id),
    { changes: [keys.grants(user)], onSuccess },
  );
