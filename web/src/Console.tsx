import { useState, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import type { components } from "./api/schema";
import { Failed, Field, Status, when } from "./ui";
import { fieldErrors } from "./edit";

// The moderator console's housekeeping: the trash, the question-category
// tree and people's editorial grants.

const PAGE = 20;

/** gone unwraps an answer with no body (204): only a failure throws. */
function gone(r: { error?: unknown; response: Response }) {
  if (!r.response.ok) must(r);
}

/** Pager steps through a list PAGE at a time; without a total (the quiz
 * trash has none) a full page is taken to mean there may be more. */
function Pager({ label, offset, shown, total, onMove }: { label: string; offset: number; shown: number; total?: number; onMove: (o: number) => void }) {
  const more = total != null ? offset + shown < total : shown === PAGE;
  if (offset === 0 && !more) return null;
  return (
    <nav className="actions" aria-label={`${label} pages`}>
      <button disabled={offset === 0} onClick={() => onMove(Math.max(0, offset - PAGE))}>
        Previous
      </button>
      <span>
        {offset + 1}–{offset + shown}
        {total != null && ` of ${total}`}
      </span>
      <button disabled={!more} onClick={() => onMove(offset + PAGE)}>
        Next
      </button>
    </nav>
  );
}

export function Trash() {
  const [note, setNote] = useState<string | null>(null);
  return (
    <section>
      <h1>Trash</h1>
      <p className="muted">Trashed questions and quizzes: bring them back, or delete them for good.</p>
      <p role="status">{note}</p>
      <TrashedQuestions onDone={setNote} />
      <TrashedQuizzes onDone={setNote} />
    </section>
  );
}

/** TrashList is one kind of trashed thing, paged, each row with Restore
 * and a confirmed Delete for good; the kinds differ only in what they show. */
function TrashList<T extends { id: number }>(props: {
  kind: "question" | "quiz";
  heading: string;
  total?: number;
  offset: number;
  setOffset: (o: number) => void;
  res: { data?: T[] } & Parameters<typeof Status>[0]["q"];
  columns: [string, string, string];
  cells: (row: T) => [ReactNode, ReactNode, ReactNode];
  name: (row: T) => string;
  warning: string;
  restore: (row: T) => Promise<string>;
  purge: (row: T) => Promise<string>;
  invalidate: string[][];
  onDone: (msg: string) => void;
}) {
  const { kind, res, offset, setOffset } = props;
  const qc = useQueryClient();
  const done = (msg: string) => {
    for (const key of props.invalidate) qc.invalidateQueries({ queryKey: key });
    props.onDone(msg);
  };
  const restore = useMutation({ mutationFn: props.restore, onSuccess: done });
  const purge = useMutation({ mutationFn: props.purge, onSuccess: done });
  const rows = res.data ?? [];
  const label = `Trashed ${kind === "quiz" ? "quizzes" : "questions"}`;
  // A page emptied by the last action steps back one.
  if (res.data && rows.length === 0 && offset > 0) setOffset(Math.max(0, offset - PAGE));
  return (
    <section aria-labelledby={`trash-${kind}-h`}>
      <h2 id={`trash-${kind}-h`}>
        {props.heading} {props.total != null && <span className="muted">({props.total})</span>}
      </h2>
      <Status q={res} />
      <Failed m={restore} />
      <Failed m={purge} />
      {res.data && rows.length === 0 && <p>No trashed {kind}.</p>}
      {rows.length > 0 && (
        <div className="scroll" tabIndex={0} role="region" aria-label={label}>
          <table>
            <thead>
              <tr>{props.columns.map((c) => <th key={c}>{c}</th>)}<th>Actions</th></tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const [head, a, b] = props.cells(row);
                const name = props.name(row);
                return (
                  <tr key={row.id}>
                    {head}
                    <td>{a}</td>
                    <td>{b}</td>
                    <td className="actions">
                      <button disabled={restore.isPending} onClick={() => restore.mutate(row)} aria-label={`Restore ${kind} ${name}`}>
                        Restore
                      </button>
                      <button
                        className="danger"
                        disabled={purge.isPending}
                        onClick={() => confirm(props.warning.replace("{name}", name)) && purge.mutate(row)}
                        aria-label={`Delete for good ${kind} ${name}`}
                      >
                        Delete for good
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager label={label} offset={offset} shown={rows.length} total={props.total} onMove={setOffset} />
    </section>
  );
}

type TrashedQuestion = components["schemas"]["QuestionBody"];

function TrashedQuestions({ onDone }: { onDone: (msg: string) => void }) {
  const [offset, setOffset] = useState(0);
  const res = useQuery({
    queryKey: ["trash", "questions", offset],
    queryFn: async () => must(await api.GET("/api/v1/questions/trash", { params: { query: { limit: PAGE, offset } } })),
  });
  const list = { ...res, data: res.data ? (res.data.questions ?? []) : undefined };
  return (
    <TrashList<TrashedQuestion>
      kind="question"
      heading="Questions"
      total={res.data?.total}
      offset={offset}
      setOffset={setOffset}
      res={list}
      columns={["Question", "Category", "Trashed"]}
      cells={(q) => [<th scope="row" className="trash-stem">{q.question_text}</th>, q.question_category_name ?? "–", when(q.deleted_at)]}
      name={(q) => String(q.id)}
      warning="Delete question {name} for good? This cannot be undone."
      restore={async (q) => `Restored question ${must(await api.PATCH("/api/v1/questions/{id}/restore", { params: { path: { id: q.id } } })).id}.`}
      purge={async (q) => (gone(await api.DELETE("/api/v1/questions/{id}/permanent", { params: { path: { id: q.id } } })), `Deleted question ${q.id} for good.`)}
      invalidate={[["trash", "questions"], ["bank"]]}
      onDone={onDone}
    />
  );
}

function TrashedQuizzes({ onDone }: { onDone: (msg: string) => void }) {
  const [offset, setOffset] = useState(0);
  const res = useQuery({
    queryKey: ["trash", "quizzes", offset],
    queryFn: async () => must(await api.GET("/api/v1/quizzes/trash", { params: { query: { limit: PAGE, offset } } })) ?? [],
  });
  return (
    <TrashList<components["schemas"]["QuizBody"]>
      kind="quiz"
      heading="Quizzes"
      offset={offset}
      setOffset={setOffset}
      res={res}
      columns={["Quiz", "Questions", "Trashed"]}
      cells={(z) => [<th scope="row">{z.title}</th>, z.questions_count, when(z.deleted_at)]}
      name={(z) => z.title}
      warning="Delete quiz “{name}” for good? Its questions stay in the bank."
      restore={async (z) => `Restored quiz “${must(await api.PATCH("/api/v1/quizzes/{quiz_id}/restore", { params: { path: { quiz_id: z.id } } })).title}”.`}
      purge={async (z) => (gone(await api.DELETE("/api/v1/quizzes/{quiz_id}/permanent", { params: { path: { quiz_id: z.id } } })), `Deleted quiz “${z.title}” for good.`)}
      invalidate={[["trash", "quizzes"], ["quizzes"]]}
      onDone={onDone}
    />
  );
}

type Category = components["schemas"]["QuestionCategoryBody"];
type Node = Category & { depth: number };

/** flatten orders the flat list as the tree reads: each category followed
 * by its subcategories, by name, with its depth. A parent that is missing
 * (never expected) leaves its children at the top. */
function flatten(all: Category[]): Node[] {
  const ids = new Set(all.map((c) => c.id));
  const kids = new Map<number | null, Category[]>();
  for (const c of all) {
    const p = c.parent_id != null && ids.has(c.parent_id) ? c.parent_id : null;
    kids.set(p, [...(kids.get(p) ?? []), c]);
  }
  const out: Node[] = [];
  const walk = (p: number | null, depth: number) => {
    for (const c of (kids.get(p) ?? []).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ ...c, depth });
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

const useCategories = () =>
  useQuery({ queryKey: ["question-categories"], queryFn: async () => must(await api.GET("/api/v1/question-categories/")) ?? [] });

/** CategoryPick is a select over the tree, indented by depth; other props
 * (a Field's id and error wiring) go to the select. */
function CategoryPick({ nodes, value, onChange, none, ...rest }: { nodes: Node[]; value: string; onChange: (v: string) => void; none?: string; required?: boolean }) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.target.value)}>
      {none != null && <option value="">{none}</option>}
      {nodes.map((n) => (
        <option key={n.id} value={n.id}>
          {"\u00a0\u00a0".repeat(n.depth) + n.name}
        </option>
      ))}
    </select>
  );
}

export function Categories() {
  const qc = useQueryClient();
  const res = useCategories();
  const nodes = flatten(res.data ?? []);
  const [note, setNote] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [parent, setParent] = useState("");
  const [editing, setEditing] = useState<Node | null>(null);
  const refresh = (msg: string) => {
    qc.invalidateQueries({ queryKey: ["question-categories"] });
    setNote(msg);
  };
  const create = useMutation({
    mutationFn: async () => must(await api.POST("/api/v1/question-categories/", { body: { name, parent_id: parent ? Number(parent) : null } })),
    onMutate: () => setNote(null),
    onSuccess: (c) => (setName(""), refresh(`Added ${c.name}.`)),
  });
  const errs = fieldErrors(create.error);
  const open = (n: Node) => {
    setEditing(n);
    setNote(null);
    create.reset();
    setTimeout(() => document.getElementById("cat-edit-name")?.focus());
  };
  return (
    <section>
      <h1>Question categories</h1>
      <p role="status">{note}</p>
      <h2 id="cat-new-h">Add a category</h2>
      <form aria-labelledby="cat-new-h" onSubmit={(e) => (e.preventDefault(), create.mutate())}>
        <div className="row">
          <Field id="cat-new-name" label="Name" error={errs.name}>
            <input required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field id="cat-new-parent" label="Under" error={errs.parent_id}>
            <CategoryPick nodes={nodes} value={parent} onChange={setParent} none="(top level)" />
          </Field>
        </div>
        <p className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            Add category
          </button>
        </p>
      </form>
      <Failed m={create} />
      {editing && (
        <CategoryEditor
          key={editing.id}
          node={editing}
          nodes={nodes}
          onClose={(msg) => {
            setEditing(null);
            if (msg) refresh(msg);
          }}
        />
      )}
      <h2>The tree</h2>
      <Status q={res} />
      {res.data && nodes.length === 0 && <p>No category yet.</p>}
      {nodes.length > 0 && (
        <ul className="tree" aria-label="Question categories">
          {nodes.map((n) => (
            <li key={n.id} style={{ marginLeft: `${n.depth * 1.25}rem` }}>
              <span className="tree-name">{n.name}</span>{" "}
              <span className="muted">
                {n.question_count} here, {n.branch_question_count} in the branch
              </span>{" "}
              <button onClick={() => open(n)} aria-label={`Edit ${n.name}`} aria-pressed={editing?.id === n.id}>
                Edit
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** CategoryEditor renames or moves one category, or deletes it with its
 * questions filed elsewhere; the server judges (a cycle, a name taken). */
function CategoryEditor({ node, nodes, onClose }: { node: Node; nodes: Node[]; onClose: (msg?: string) => void }) {
  const [name, setName] = useState(node.name);
  const [parent, setParent] = useState(node.parent_id == null ? "" : String(node.parent_id));
  const [moveTo, setMoveTo] = useState("");
  const save = useMutation({
    mutationFn: async () =>
      must(await api.PATCH("/api/v1/question-categories/{cat_id}", { params: { path: { cat_id: node.id } }, body: { name, parent_id: parent ? Number(parent) : null } })),
    onSuccess: (c) => onClose(`Saved ${c.name}.`),
  });
  const remove = useMutation({
    mutationFn: async () =>
      gone(await api.DELETE("/api/v1/question-categories/{cat_id}", { params: { path: { cat_id: node.id }, query: moveTo ? { move_to: Number(moveTo) } : {} } })),
    onSuccess: () => onClose(`Deleted ${node.name}.`),
  });
  const errs = fieldErrors(save.error);
  const others = nodes.filter((n) => n.id !== node.id);
  return (
    <section className="panel" aria-labelledby="cat-edit-h">
      <h2 id="cat-edit-h">Edit {node.name}</h2>
      <form aria-label={`Rename or move ${node.name}`} onSubmit={(e) => (e.preventDefault(), save.mutate())}>
        <div className="row">
          <Field id="cat-edit-name" label="New name" error={errs.name}>
            <input required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field id="cat-edit-parent" label="Move under" error={errs.parent_id}>
            {/* Every other category is offered: the server refuses a cycle and says so. */}
            <CategoryPick nodes={others} value={parent} onChange={setParent} none="(top level)" />
          </Field>
        </div>
        <p className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save category
          </button>
          <button type="button" onClick={() => onClose()}>
            Cancel
          </button>
        </p>
      </form>
      <Failed m={save} />
      <h3 id="cat-del-h">Delete {node.name}</h3>
      <p className="muted">Its subcategories move up a level; its {node.question_count} questions go where you say.</p>
      <form
        aria-labelledby="cat-del-h"
        onSubmit={(e) => (e.preventDefault(), confirm(`Delete the category ${node.name}?`) && remove.mutate())}
      >
        <div className="row">
          <Field id="cat-del-move" label="Move its questions to">
            <CategoryPick nodes={others} value={moveTo} onChange={setMoveTo} none="(uncategorised)" />
          </Field>
        </div>
        <p className="actions">
          <button type="submit" className="danger" disabled={remove.isPending}>
            Delete category
          </button>
        </p>
      </form>
      <Failed m={remove} />
    </section>
  );
}

type Kind = components["schemas"]["GiveGrantInputBody"]["kind"];
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
  const people = useQuery({
    enabled: admin,
    queryKey: ["people"],
    queryFn: async () => must(await api.GET("/api/v1/admin/users", { params: { query: { limit: 200 } } })),
  });
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
  const qc = useQueryClient();
  const key = ["grants", userId];
  const res = useQuery({
    queryKey: key,
    retry: false,
    queryFn: async () => must(await api.GET("/api/v1/access/{user_id}/grants", { params: { path: { user_id: userId } } })) ?? [],
  });
  const cats = useCategories();
  const nodes = flatten(cats.data ?? []);
  const names = new Map(nodes.map((n) => [n.id, n.name]));
  const [kind, setKind] = useState<Kind>("category");
  const [target, setTarget] = useState("");
  const [scope, setScope] = useState<"deck" | "category">("deck");
  const [note, setNote] = useState<string | null>(null);
  const give = useMutation({
    mutationFn: async () =>
      must(await api.POST("/api/v1/access/{user_id}/grants", { params: { path: { user_id: userId } }, body: { kind, target_id: Number(target), ...(kind === "deck" ? { scope } : {}) } })),
    onMutate: () => setNote(null),
    onSuccess: (g) => (qc.invalidateQueries({ queryKey: key }), setTarget(""), setNote(`Gave a ${g.kind} grant on ${g.target_id}.`)),
  });
  const revoke = useMutation({
    mutationFn: async (grant_id: number) => (gone(await api.DELETE("/api/v1/access/{user_id}/grants/{grant_id}", { params: { path: { user_id: userId, grant_id } } })), grant_id),
    onMutate: () => setNote(null),
    onSuccess: (gid) => (qc.invalidateQueries({ queryKey: key }), setNote(`Revoked grant ${gid}.`)),
  });
  const errs = fieldErrors(give.error);
  const target_ = (g: { kind: Kind; target_id: number }) => (g.kind === "category" ? (names.get(g.target_id) ?? `category ${g.target_id}`) : `${g.kind} ${g.target_id}`);
  if (res.isError) return <p role="alert">Could not load the grants of {label}: {res.error.message}</p>;
  return (
    <section aria-labelledby="grants-h">
      <h2 id="grants-h">Grants of {label}</h2>
      <p role="status">{note}</p>
      <Status q={res} />
      {res.data && res.data.length === 0 && <p>No grant.</p>}
      {!!res.data?.length && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Grants">
          <table>
            <thead>
              <tr><th>Kind</th><th>Target</th><th>Scope</th><th>Given</th><th>Actions</th></tr>
            </thead>
            <tbody>
              {res.data.map((g) => (
                <tr key={g.id}>
                  <td>{g.kind}</td>
                  <th scope="row">{target_(g)}</th>
                  <td>{g.scope ?? "–"}</td>
                  <td>{when(g.created_at)}</td>
                  <td>
                    <button disabled={revoke.isPending} onClick={() => revoke.mutate(g.id)} aria-label={`Revoke the ${g.kind} grant on ${target_(g)}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Failed m={revoke} />
      <h3 id="grant-give-h">Give a grant</h3>
      <form aria-labelledby="grant-give-h" onSubmit={(e) => (e.preventDefault(), give.mutate())}>
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
              <CategoryPick nodes={nodes} value={target} onChange={setTarget} none="Pick a category…" required />
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
        <p className="actions">
          <button type="submit" className="primary" disabled={give.isPending}>
            Give grant
          </button>
        </p>
      </form>
      <Failed m={give} />
    </section>
  );
}
