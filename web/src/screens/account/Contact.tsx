import { useState } from "react";
import { useMe, useSendMessage } from "../../api/account";
import { Failed, Field } from "../../ui/ui";

const topics = ["general", "support", "content", "bug"] as const;

/** Contact sends a message to the site's team (the admins read it under Messages). */
export function Contact() {
  const me = useMe();
  const [form, setForm] = useState<{ name?: string; email?: string; type: string; message: string }>({ type: "general", message: "" });
  const send = useSendMessage(() => setForm({ ...form, message: "" }));
  const name = form.name ?? me.data?.name ?? "";
  const email = form.email ?? me.data?.email ?? "";
  return (
    <section>
      <h1>Contact</h1>
      <p className="muted">A question, a problem or a suggestion for the team. To report a fault in one question, use its report button instead.</p>
      <form className="stack" onSubmit={(e) => (e.preventDefault(), send.mutate({ name, email, type: form.type, message: form.message }))}>
        <Field id="contact-name" label="Your name">
          <input required autoComplete="name" value={name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field id="contact-email" label="Email">
          <input required type="email" autoComplete="email" value={email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </Field>
        <Field id="contact-type" label="About">
          <select value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
            {topics.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Field>
        <Field id="contact-message" label="Message">
          <textarea required rows={6} maxLength={5000} value={form.message} onChange={(e) => setForm({ ...form, message: e.target.value })} />
        </Field>
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
