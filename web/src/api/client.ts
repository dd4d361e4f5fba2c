// The typed API client: paths and bodies come from schema.d.ts, generated
// from the served OpenAPI document (`go tool task web:gen`).
import createClient, { type Middleware } from "openapi-fetch";
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
