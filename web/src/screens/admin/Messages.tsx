import { useState } from "react";
import { useMarkRead, useMessages } from "../../api/admin";
import { Failed, Status, when } from "../../ui/ui";

/** Messages is the admins' inbox of contact messages. */
export function Messages() {
  const [unread, setUnread] = useState(false);
  const res = useMessages(unread);
  const read = useMarkRead();
  return (
    <section>
      <h1>Messages</h1>
      <label className="check">
        <input type="checkbox" checked={unread} onChange={(e) => setUnread(e.target.checked)} /> Unread only
      </label>
      <Status q={res} what="the messages" />
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

