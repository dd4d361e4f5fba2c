// The signed-in person: their account, their devices, messages to the team.
import { useQuery } from "@tanstack/react-query";
import { api, must, useWrite } from "./client";
import { keys } from "./keys";

export type Role = "user" | "moderator" | "admin";

export const useMe = () => useQuery({ queryKey: keys.me, staleTime: 300_000, queryFn: async () => must(await api.GET("/api/v1/auth/me")) });

export const useSessions = () => useQuery({ queryKey: keys.sessions, queryFn: async () => must(await api.GET("/api/v1/auth/sessions")) });

export const useEndSession = () =>
  useWrite(
    async (family: string) => {
      const r = await api.DELETE("/api/v1/auth/sessions/{family}", { params: { path: { family } } });
      if (!r.response.ok) throw new Error(`${r.response.status}`);
    },
    { changes: [keys.sessions] },
  );

export const useSendMessage = (onSuccess: () => void) =>
  useWrite(async (body: { name: string; email: string; type: string; message: string }) => must(await api.POST("/api/v1/contact", { body })), {
    changes: [keys.messages.root],
    onSuccess,
  });
