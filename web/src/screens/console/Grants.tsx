// Editorial grants: find a person, see what part of the content they may
// edit, give a grant and revoke one.
import { useState } from "react";
import { usePeople } from "../../api/admin";
import { useCategories } from "../../api/categories";
import { useGiveGrant, useGrants, useRevokeGrant, type Kind } from "../../api/grants";
import { fieldErrors } from "../../lib/edit";
import { ActionTable } from "../../ui/ActionTable";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Failed, Field, Status, Submit, when } from "../../ui/ui";

const kinds: [Kind, string][] = [
  ["category", "Category branch (questions and articles)"],
  ["deck", "Flashcard deck"],
  ["quiz", "Quiz (its questions)"],
  ["article", "Article (and its figures)"],
];

/** Grants finds a person by account id (an administrator may also pick
 * from the people list) and shows, gives and revokes their grants. */
export function Grants({ admin }: { admin: boolean }) {
  const [id, setId] = useState("");
  const [who, setWho] = useState<number | null>(null);
  const people = usePeople(admin);
  const person = people.data?.find((p) => p.id === who);
  return (
    <section>
      <h1>Editorial grants</h1>
      <p className="muted">A grant lets a learner edit one part of the content. Moderators and administrators edit everything already.</p>
      <form className="row" aria-label="Find a person" onSubmit={(e) => (e.preventDefault(), setWho(Number(id) || null))}>
        {admin && people.data && (
          <Field id="grant-pick" label="Person">
            <select value={id} onChange={(e) => (setId(e.target.value), setWho(Number(e.target.value) || null))}>
              <option value="">Pick a person…</option>
              {people.data.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.email}, {p.role})
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field id="grant-user" label="Account id">
          <input type="number" min={1} required value={id} onChange={(e) => setId(e.target.value)} />
        </Field>
        <p className="actions">
          <button type="submit">Show grants</button>
        </p>
      </form>
      {who && <PersonGrants key={who} userId={who} label={person ? `${person.name} (${person.email})` : `account ${who}`} />}
    </section>
  );
}

function PersonGrants({ userId, label }: { userId: number; label: string }) {
  const res = useGrants(userId);
  const tree = useCategories();
  const [kind, setKind] = useState<Kind>("category");
  const [target, setTarget] = useState("");
  const [scope, setScope] = useState<"deck" | "category">("deck");
  const [note, setNote] = useState<string | null>(null);
  const give = useGiveGrant(userId, (g) => (setTarget(""), setNote(`Gave a ${g.kind} grant on ${g.target_id}.`)));
  const revoke = useRevokeGrant(userId, (gid) => setNote(`Revoked grant ${gid}.`));
  const errs = fieldErrors(give.error);
  const target_ = (g: { kind: Kind; target_id: number }) => (g.kind === "category" ? (tree.data?.byId.get(g.target_id)?.name ?? `category ${g.target_id}`) : `${g.kind} ${g.target_id}`);
  if (res.isError) return <p role="alert">Could not load the grants of {label}: {res.error.message}</p>;
  return (
    <section aria-labelledby="grants-h">
      <h2 id="grants-h">Grants of {label}</h2>
      <p role="status">{note}</p>
      <Status q={res} />
      {res.data && res.data.length === 0 && <p>No grant.</p>}
      {!!res.data?.length && (
        <ActionTable
          label="Grants"
          rows={res.data}
          rowKey={(g) => g.id}
          columns={[
            { header: "Target", cell: target_ },
            { header: "Kind", cell: (g) => g.kind },
            { header: "Scope", cell: (g) => g.scope ?? "–" },
            { header: "Given", cell: (g) => when(g.created_at) },
          ]}
          actions={(g) => (
            <button disabled={revoke.isPending} onClick={() => (setNote(null), revoke.mutate(g.id))} aria-label={`Revoke the ${g.kind} grant on ${target_(g)}`}>
              Revoke
            </button>
          )}
        />
      )}
      <Failed m={revoke} />
      <h3 id="grant-give-h">Give a grant</h3>
      <form
        aria-labelledby="grant-give-h"
        onSubmit={(e) => (e.preventDefault(), setNote(null), give.mutate({ kind, target_id: Number(target), ...(kind === "deck" ? { scope } : {}) }))}
      >
        <div className="row">
          <Field id="grant-kind" label="Kind" error={errs.kind}>
            <select value={kind} onChange={(e) => (setKind(e.target.value as Kind), setTarget(""))}>
              {kinds.map(([k, l]) => (
                <option key={k} value={k}>
                  {l}
                </option>
              ))}
            </select>
          </Field>
          {kind === "category" ? (
            <Field id="grant-target" label="Category" error={errs.target_id}>
              <CategoryPicker value={target} onChange={setTarget} none="Pick a category…" required />
            </Field>
          ) : (
            <Field id="grant-target" label={`${kind[0].toUpperCase()}${kind.slice(1)} id`} error={errs.target_id}>
              <input type="number" min={1} required value={target} onChange={(e) => setTarget(e.target.value)} />
            </Field>
          )}
          {kind === "deck" && (
            <Field id="grant-scope" label="Scope" error={errs.scope}>
              <select value={scope} onChange={(e) => setScope(e.target.value as "deck" | "category")}>
                <option value="deck">This deck</option>
                <option value="category">Its category branch of decks</option>
              </select>
            </Field>
          )}
        </div>
        <Submit m={give} label="Give grant" />
      </form>
    </section>
  );
}
