import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Failed, Status, when } from "./ui";

const topics = ["general", "support", "content", "bug"] as const;

/** Contact sends a message to the site's team (the admins read it under Messages). */
export function Contact() {
  const me = useQuery({ queryKey: ["me"], queryFn: async () => must(await api.GET("/api/v1/auth/me")) });
  const [form, setForm] = useState<{ name?: string; email?: string; type: string; message: string }>({ type: "general", message: "" });
  const send = useMutation({
    mutationFn: async () =>
      must(
        await api.POST("/api/v1/contact", {
          body: { name: form.name ?? me.data?.name ?? "", email: form.email ?? me.data?.email ?? "", type: form.type, message: form.message },
        }),
      ),
    onSuccess: () => setForm({ ...form, message: "" }),
  });
  return (
    <section>
      <h1>Contact</h1>
      <p className="muted">A question, a problem or a suggestion for the team. To report a fault in one question, use its report button instead.</p>
      <form className="stack" onSubmit={(e) => (e.preventDefault(), send.mutate())}>
        <label className="field">
          Your name <input required autoComplete="name" value={form.name ?? me.data?.name ?? ""} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label className="field">
          Email <input required type="email" autoComplete="email" value={form.email ?? me.data?.email ?? ""} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </label>
        <div className="field">
          <label htmlFor="contact-type">About</label>
          <select id="contact-type" value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
            {topics.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
        <label className="field">
          Message <textarea required rows={6} maxLength={5000} value={form.message} onChange={(e) => setForm({ ...form, message: e.target.value })} />
        </label>
        <p>
          <button type="submit" className="primary" disabled={send.isPending}>
            Send
          </button>
        </p>
      </form>
      {send.isSuccess && <p role="status">Sent. Thank you: the team reads every message.</p>}
      <Failed m={send} />
    </section>
  );
}

/** Messages is the admins' inbox of contact messages. */
export function Messages() {
  const qc = useQueryClient();
  const [unread, setUnread] = useState(false);
  const res = useQuery({
    queryKey: ["contact", unread],
    queryFn: async () => must(await api.GET("/api/v1/contact/submissions", { params: { query: { unread, limit: 100 } } })),
  });
  const read = useMutation({
    mutationFn: async (id: number) => must(await api.PUT("/api/v1/contact/submissions/{submission_id}/read", { params: { path: { submission_id: id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["contact"] }),
  });
  return (
    <section>
      <h1>Messages</h1>
      <label className="check">
        <input type="checkbox" checked={unread} onChange={(e) => setUnread(e.target.checked)} /> Unread only
      </label>
      <Status q={res} />
      <Failed m={read} />
      {res.data && res.data.length === 0 && <p>No message.</p>}
      <ul className="drafts">
        {(res.data ?? []).map((m) => (
          <li key={m.id} className={`draft ${m.read ? "" : "accepted"}`}>
            <p className="draft-head">
              <strong>{m.name}</strong> <a href={`mailto:${m.email}`}>{m.email}</a> <span className="badge">{m.type}</span>
              <span className="muted">{when(m.created_at)}</span>
              {!m.read && (
                <button disabled={read.isPending} onClick={() => read.mutate(m.id)} aria-label={`Mark the message from ${m.name} read`}>
                  Mark read
                </button>
              )}
            </p>
            <p className="pre">{m.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Usage is the AI token use per person and task over the last days. */
export function Usage() {
  const [days, setDays] = useState(30);
  const res = useQuery({
    queryKey: ["ai-usage", days],
    queryFn: async () => must(await api.GET("/api/v1/admin/ai/usage", { params: { query: { days, limit: 200 } } })),
  });
  const people = useQuery({ queryKey: ["people"], queryFn: async () => must(await api.GET("/api/v1/admin/users", { params: { query: { limit: 200 } } })) });
  const name = (id: number) => people.data?.find((u) => u.id === id)?.name ?? `#${id}`;
  const rows = res.data ?? [];
  const sum = (k: "calls" | "prompt_tokens" | "completion_tokens") => rows.reduce((n, r) => n + r[k], 0);
  const n = (v: number) => v.toLocaleString();
  return (
    <section>
      <h1>AI usage</h1>
      <div className="field">
        <label htmlFor="usage-days">Over the last</label>
        <select id="usage-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {[1, 7, 30, 90].map((d) => (
            <option key={d} value={d}>
              {d === 1 ? "day" : `${d} days`}
            </option>
          ))}
        </select>
      </div>
      <Status q={res} />
      {res.data && rows.length === 0 && <p>No model call in this period.</p>}
      {rows.length > 0 && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Usage by person and task">
          <table>
            <thead>
              <tr><th>Person</th><th>Task</th><th className="num">Calls</th><th className="num">Prompt tokens</th><th className="num">Completion tokens</th></tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.user_id}-${r.task}`}>
                  <td>{name(r.user_id)}</td>
                  <td>{r.task}</td>
                  <td className="num">{n(r.calls)}</td>
                  <td className="num">{n(r.prompt_tokens)}</td>
                  <td className="num">{n(r.completion_tokens)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr><th scope="row" colSpan={2}>Total</th><td className="num">{n(sum("calls"))}</td><td className="num">{n(sum("prompt_tokens"))}</td><td className="num">{n(sum("completion_tokens"))}</td></tr>
            </tfoot>
          </table>
        </div>
      )}
      <p className="muted">Speech counts characters in the prompt column.</p>
    </section>
  );
}
