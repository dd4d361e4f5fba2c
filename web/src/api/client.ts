// The typed API client: paths and bodies come from schema.d.ts, generated
// from the served OpenAPI document (`go tool task web:gen`).
import createClient, { type Middleware } from "openapi-fetch";
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import type { paths } from "./schema";
import { accessToken } from "../auth";

export type FieldProblem = { field: string; message: string };
export type ApiError = { error?: { code?: string; message?: string; fields?: FieldProblem[] | null } };

// accessToken refreshes ahead of expiry, so a request never carries a stale token.
const bearer: Middleware = {
  async onRequest({ request }) {
    const token = await accessToken();
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: "" });
api.use(bearer);

/** must unwraps an openapi-fetch answer, throwing the envelope's message
 * (with its field problems, which forms show next to their fields). */
export function must<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || r.data === undefined) {
    const env = (r.error as ApiError | undefined)?.error;
    const msg = env?.message ?? `${r.response.status} ${r.response.statusText}`;
    throw Object.assign(new Error(msg), { status: r.response.status, fields: env?.fields ?? [] });
  }
  return r.data;
}

/** ok throws the envelope's message when an answer without a body (204) failed. */
export function ok(r: { error?: unknown; response: Response }): void {
  if (!r.response.ok) must(r);
}

/** The bank and a few listings take id lists comma-separated. */
export const commas = { array: { style: "form", explode: false } } as const;

type WriteOptions<V, R> = {
  /** What the write changes: each key a prefix (a resource's root covers all of it). */
  changes: QueryKey[] | ((result: R, vars: V) => QueryKey[]);
  onMutate?: (vars: V) => void;
  onSuccess?: (result: R, vars: V) => void;
};

/** useWrite is a mutation that, once it succeeds, marks every resource it
 * changes stale (those on screen are read again at once), so no screen
 * shows what the write made untrue. */
export function useWrite<V = void, R = unknown>(write: (vars: V) => Promise<R>, o: WriteOptions<V, R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: write,
    onMutate: o.onMutate,
    onSuccess: (result, vars) => {
      // The screen moves on first (a deleted thing's view closes), then
      // what changed is read again.
      o.onSuccess?.(result, vars);
      for (const key of typeof o.changes === "function" ? o.changes(result, vars) : o.changes) void qc.invalidateQueries({ queryKey: key });
    },
  });
}
