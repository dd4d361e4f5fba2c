// The learner's side of the bank: browse what reaches you with the bank's
// filters, favourite, file questions in collections and folders, keep notes,
// and build a test of your own to sit (moderators: a quiz of any questions).
import { useState, type ChangeEvent, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import type { components } from "./api/schema";
import { navigate } from "./router";
import { Failed, Field, Status, when } from "./ui";
import { fieldErrors } from "./edit";

type Mode = "keyword" | "semantic" | "hybrid";
type Filters = { q: string; mode: Mode; categories: number[]; tags: number[]; favorites: boolean; uncategorized: boolean };
type BankQuestion = components["schemas"]["BankQuestionBody"];
type Category = components["schemas"]["QuestionCategoryBody"];

const pageSize = 20;
const none: Filters = { q: "", mode: "keyword", categories: [], tags: [], favorites: false, uncategorized: false };
// The bank takes its id lists comma-separated.
const commas = { array: { style: "form", explode: false } } as const;

/** ok throws the envelope's message when an answer without a body failed. */
const ok = (r: { error?: unknown; response: Response }) => {
  if (!r.response.ok) must(r);
};

/** query is the bank's filter set as the listing and the id list take it. */
const query = (f: Filters) => ({
  q: f.q || undefined,
  category_ids: f.categories.length ? f.categories : undefined,
  tag_ids: f.tags.length ? f.tags : undefined,
  favorites_only: f.favorites || undefined,
  uncategorized: f.uncategorized || undefined,
});

/** treeOrder lists categories depth-first with their depth, for an indented picker. */
function treeOrder(all: Category[]): [Category, number][] {
  const out: [Category, number][] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const c of all.filter((x) => (x.parent_id ?? null) === parent).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push([c, depth]);
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

const selected = (e: ChangeEvent<HTMLSelectElement>) => [...e.target.selectedOptions].map((o) => Number(o.value));

const useCategories = () =>
  useQuery({ queryKey: ["question-categories"], queryFn: async () => treeOrder(must(await api.GET("/api/v1/question-categories/")) ?? []) });
const useCollections = () => useQuery({ queryKey: ["collections"], queryFn: async () => must(await api.GET("/api/v1/collections", { params: { query: { limit: 200 } } })) ?? [] });
const useFolders = () => useQuery({ queryKey: ["folders"], queryFn: async () => must(await api.GET("/api/v1/folders", { params: { query: { limit: 200 } } })) ?? [] });

export function Browse({ moderator = false }: { moderator?: boolean }) {
  const [form, setForm] = useState<Filters>(none);
  const [applied, setApplied] = useState<Filters>(none);
  const [offset, setOffset] = useState(0);
  const cats = useCategories();
  const tags = useQuery({ queryKey: ["tags"], queryFn: async () => must(await api.GET("/api/v1/tags")) });
  const res = useQuery({
    queryKey: ["learn-bank", applied, offset],
    queryFn: async () =>
      must(
        await api.GET("/api/v1/questions/bank", {
          params: { query: { ...query(applied), search_mode: applied.mode, limit: pageSize, offset } },
          querySerializer: commas,
        }),
      ),
  });
  const favs = useQuery({ queryKey: ["favorites"], queryFn: async () => new Set(must(await api.GET("/api/v1/favorites")) ?? []) });
  const ids = (res.data?.questions ?? []).map((x) => x.id);
  const notes = useQuery({
    queryKey: ["notes", ids],
    enabled: ids.length > 0,
    queryFn: async () => new Map((must(await api.GET("/api/v1/notes", { params: { query: { question_ids: ids.join(","), limit: ids.length } } })) ?? []).map((n) => [n.question_id, n])),
  });
  const tagList = [...(tags.data?.subjects ?? []), ...(tags.data?.diseases ?? []), ...(tags.data?.systems ?? [])];
  const total = res.data?.total ?? 0;
  return (
    <section>
      <h1>Browse questions</h1>
      <p className="muted">{moderator ? "Every question in the bank." : "The questions that reach you: those your grants cover and your favourites."}</p>
      <form className="row learn-filters" aria-label="Filters" onSubmit={(e) => (e.preventDefault(), setOffset(0), setApplied(form))}>
        <Field id="learn-q" label="Search">
          <input type="search" value={form.q} onChange={(e) => setForm({ ...form, q: e.target.value })} />
        </Field>
        <Field id="learn-mode" label="Search mode">
          <select value={form.mode} onChange={(e) => setForm({ ...form, mode: e.target.value as Mode })}>
            <option value="keyword">Keyword</option>
            <option value="semantic">Semantic</option>
            <option value="hybrid">Hybrid</option>
          </select>
        </Field>
        <Field id="learn-cats" label="Categories">
          <select multiple size={4} value={form.categories.map(String)} onChange={(e) => setForm({ ...form, categories: selected(e) })}>
            {(cats.data ?? []).map(([c, depth]) => (
              <option key={c.id} value={c.id}>
                {"\u00a0\u00a0".repeat(depth)}
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="learn-tags" label="Tags (all of)">
          <select multiple size={4} value={form.tags.map(String)} onChange={(e) => setForm({ ...form, tags: selected(e) })}>
            {tagList.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.type})
              </option>
            ))}
          </select>
        </Field>
        <div className="checks">
          <label className="check">
            <input type="checkbox" checked={form.favorites} onChange={(e) => setForm({ ...form, favorites: e.target.checked })} /> Favourites only
          </label>
          <label className="check">
            <input type="checkbox" checked={form.uncategorized} onChange={(e) => setForm({ ...form, uncategorized: e.target.checked })} /> Uncategorised too
          </label>
        </div>
        <p className="actions">
          <button type="submit" className="primary">
            Search
          </button>
          <button type="button" onClick={() => (setForm(none), setOffset(0), setApplied(none))}>
            Clear
          </button>
        </p>
      </form>
      <BuildTest moderator={moderator} filters={applied} total={total} categories={cats.data ?? []} />
      <Status q={res} />
      {res.data && (
        <>
          <p className="muted" aria-live="polite" data-testid="learn-count">
            {total === 0 ? "No question matches." : `${offset + 1}–${Math.min(offset + pageSize, total)} of ${total} questions`}
          </p>
          {/* semantic and hybrid fall back to keyword when search cannot run */}
          {applied.q && res.data.search_mode && res.data.search_mode !== applied.mode && (
            <p className="muted">
              Matched by {res.data.search_mode}: {applied.mode} search is not available now.
            </p>
          )}
          <ol className="bank learn" start={offset + 1}>
            {(res.data.questions ?? []).map((x) => (
              <Question key={x.id} x={x} favourite={favs.data?.has(x.id) ?? false} note={notes.data?.get(x.id)} />
            ))}
          </ol>
          {total > pageSize && (
            <p className="actions" role="group" aria-label="Pages">
              <button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
                Previous page
              </button>
              <button disabled={offset + pageSize >= total} onClick={() => setOffset(offset + pageSize)}>
                Next page
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}

type Note = components["schemas"]["NoteResponse"];

/** FavouriteButton stars or unstars a question for the signed-in person
 * (the bank browser and the attempt review share it). */
export function FavouriteButton({ questionId, favourite }: { questionId: number; favourite: boolean }) {
  const qc = useQueryClient();
  const fav = useMutation({
    mutationFn: async () => {
      if (favourite) ok(await api.DELETE("/api/v1/favorites/{question_id}", { params: { path: { question_id: questionId } } }));
      else must(await api.POST("/api/v1/favorites", { body: { question_id: questionId } }));
    },
    // A learner's listing is partly their favourites: it changes too.
    onSuccess: () => (qc.invalidateQueries({ queryKey: ["favorites"] }), qc.invalidateQueries({ queryKey: ["learn-bank"] })),
  });
  return (
    <>
      <button aria-pressed={favourite} disabled={fav.isPending} onClick={() => fav.mutate()} aria-label={`Favourite question ${questionId}`}>
        {favourite ? "★ Favourite" : "☆ Favourite"}
      </button>
      <Failed m={fav} />
    </>
  );
}

/** Question is one listed question with its favourite star, its note and
 * the collection picker. The answer side shows only when the API sent it. */
function Question({ x, favourite, note }: { x: BankQuestion; favourite: boolean; note?: Note }) {
  return (
    <li aria-label={`Question ${x.id}`}>
      <p className="stem-text">{x.question_text}</p>
      {x.options && x.options.length > 0 && (
        <ol className="options" type="A">
          {x.options.map((o, i) => (
            <li key={i}>{o}</li>
          ))}
        </ol>
      )}
      {x.correct_answer && (
        <p>
          <strong>Answer:</strong> {x.correct_answer}
        </p>
      )}
      {x.explanation && <p className="muted">{x.explanation}</p>}
      <p className="muted">
        {x.question_category_name ?? "uncategorised"}
        {x.quiz_title ? ` · ${x.quiz_title}` : ""}
        {x.difficulty ? ` · ${x.difficulty}` : ""}
      </p>
      <p className="actions">
        <FavouriteButton questionId={x.id} favourite={favourite} />
        <AddToCollection questionId={x.id} />
      </p>
      <NoteEditor questionId={x.id} note={note} />
    </li>
  );
}

function AddToCollection({ questionId }: { questionId: number }) {
  const cols = useCollections();
  const qc = useQueryClient();
  const [pick, setPick] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: async () => {
      ok(await api.PUT("/api/v1/collections/{collection_id}/questions/{question_id}", { params: { path: { collection_id: Number(pick), question_id: questionId } } }));
      return cols.data?.find((c) => c.id === Number(pick))?.name;
    },
    onMutate: () => setDone(null),
    onSuccess: (name) => {
      setDone(`Added to ${name}.`);
      qc.invalidateQueries({ queryKey: ["collections"] });
      qc.invalidateQueries({ queryKey: ["collection", Number(pick)] });
    },
  });
  if (!cols.data?.length) return null;
  const id = `add-${questionId}`;
  return (
    <>
      <label htmlFor={id} className="sr-only">
        Collection for question {questionId}
      </label>
      <select id={id} value={pick} onChange={(e) => setPick(e.target.value)}>
        <option value="">Choose a collection…</option>
        {cols.data.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <button disabled={!pick || add.isPending} onClick={() => add.mutate()} aria-label={`Add question ${questionId} to the collection`}>
        Add
      </button>
      <span role="status">{done}</span>
      {add.error && (
        <span role="alert" className="error">
          {add.error.message}
        </span>
      )}
    </>
  );
}

/** NoteEditor shows the learner's note on a question and writes, edits or deletes it. */
function NoteEditor({ questionId, note }: { questionId: number; note?: Note }) {
  const qc = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ["notes"] });
  const save = useMutation({
    mutationFn: async () => must(await api.PUT("/api/v1/notes/{question_id}", { params: { path: { question_id: questionId } }, body: { body: draft ?? "" } })),
    onSuccess: () => (setDraft(null), refresh()),
  });
  const remove = useMutation({
    mutationFn: async () => ok(await api.DELETE("/api/v1/notes/{question_id}", { params: { path: { question_id: questionId } } })),
    onSuccess: refresh,
  });
  const id = `note-${questionId}`;
  if (draft !== null)
    return (
      <form className="note" onSubmit={(e) => (e.preventDefault(), save.mutate())}>
        <Field id={id} label={`Your note on question ${questionId}`} error={fieldErrors(save.error).body}>
          <textarea rows={3} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </Field>
        <p className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save note
          </button>
          <button type="button" onClick={() => (setDraft(null), save.reset())}>
            Cancel
          </button>
        </p>
        <Failed m={save} />
      </form>
    );
  return (
    <div className="note">
      {note && (
        <p>
          <strong>Your note:</strong> <span data-testid={`note-${questionId}`}>{note.body}</span> <span className="muted">({when(note.updated_at)})</span>
        </p>
      )}
      <p className="actions">
        <button
          onClick={() => {
            setDraft(note?.body ?? "");
            setTimeout(() => document.getElementById(id)?.focus());
          }}
          aria-label={`${note ? "Edit note" : "Write a note"} on question ${questionId}`}
        >
          {note ? "Edit note" : "Write a note"}
        </button>
        {note && (
          <button disabled={remove.isPending} onClick={() => remove.mutate()} aria-label={`Delete note on question ${questionId}`}>
            Delete note
          </button>
        )}
      </p>
      <Failed m={remove} />
    </div>
  );
}

/** maxSavedTest is POST /saved-tests' bound on question_ids. */
const maxSavedTest = 200;

/** BuildTest makes a test of the listed questions or of a category's branch
 * and opens its sitting. Moderators make an unpublished quiz
 * (POST /questions/from-bank or the category's create-quiz); everyone else a
 * saved test of their own (POST /saved-tests), which keeps only the
 * questions open to them and which only they sit. */
function BuildTest({ moderator, filters, total, categories }: { moderator: boolean; filters: Filters; total: number; categories: [Category, number][] }) {
  const [title, setTitle] = useState("");
  const [mode, setMode] = useState<"timed" | "learning">("timed");
  const [minutes, setMinutes] = useState("");
  const [from, setFrom] = useState("filters");
  const build = useMutation({
    mutationFn: async () => {
      const time_limit_minutes = mode === "timed" && minutes ? Number(minutes) : undefined;
      if (moderator && from !== "filters")
        return must(await api.POST("/api/v1/question-categories/{cat_id}/create-quiz", { params: { path: { cat_id: Number(from) }, query: { title, mode, time_limit_minutes } } }));
      // The id list matches keyword text, as the bank's keyword mode does; a
      // category is the filter on its branch.
      const q = from === "filters" ? query(filters) : { category_id: Number(from) };
      const question_ids = must(await api.GET("/api/v1/questions/bank/ids", { params: { query: q }, querySerializer: commas })) ?? [];
      if (moderator) return must(await api.POST("/api/v1/questions/from-bank", { body: { title, mode, question_ids, time_limit_minutes } }));
      // A saved test takes at most 200 questions: the first 200 listed.
      return must(await api.POST("/api/v1/saved-tests", { body: { title, mode, question_ids: question_ids.slice(0, maxSavedTest), time_limit_minutes } }));
    },
    onSuccess: (quiz) => navigate(`/quizzes/${quiz.id}/sit${mode === "learning" ? "?study=1" : ""}`),
  });
  const errs = fieldErrors(build.error);
  return (
    <details className="panel build">
      <summary>Build a test</summary>
      <form onSubmit={(e) => (e.preventDefault(), build.mutate())}>
        <div className="row">
          <Field id="build-title" label="Title" error={errs.title}>
            <input required value={title} onChange={(e) => setTitle(e.target.value)} />
          </Field>
          <Field id="build-from" label="Questions from">
            <select value={from} onChange={(e) => setFrom(e.target.value)}>
              <option value="filters">The current filters ({total})</option>
              {categories.map(([c, depth]) => (
                <option key={c.id} value={c.id}>
                  {"\u00a0\u00a0".repeat(depth)}
                  {c.name} ({c.branch_question_count})
                </option>
              ))}
            </select>
          </Field>
          <Field id="build-mode" label="Mode">
            <select value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
              <option value="timed">Timed</option>
              <option value="learning">Study (answers at once)</option>
            </select>
          </Field>
          {mode === "timed" && (
            <Field id="build-minutes" label="Minutes (optional)" error={errs.time_limit_minutes}>
              <input type="number" min={1} value={minutes} onChange={(e) => setMinutes(e.target.value)} />
            </Field>
          )}
          <button type="submit" className="primary" disabled={build.isPending}>
            Build and sit
          </button>
          {!moderator && <span className="muted">At most {maxSavedTest} questions, those open to you.</span>}
        </div>
      </form>
      <Failed m={build} />
    </details>
  );
}

/** Collections is the learner's folders and collections: make, rename,
 * file, delete, and open one to see and remove its questions. */
export function Collections() {
  const qc = useQueryClient();
  const folders = useFolders();
  const cols = useCollections();
  const [open, setOpen] = useState<number | null>(null);
  const [newFolder, setNewFolder] = useState("");
  const [newCol, setNewCol] = useState({ name: "", folder: "" });
  const reload = () => (qc.invalidateQueries({ queryKey: ["folders"] }), qc.invalidateQueries({ queryKey: ["collections"] }));
  const addFolder = useMutation({
    mutationFn: async () => must(await api.POST("/api/v1/folders", { body: { name: newFolder } })),
    onSuccess: () => (setNewFolder(""), reload()),
  });
  const addCol = useMutation({
    mutationFn: async () => must(await api.POST("/api/v1/collections", { body: { name: newCol.name, folder_id: newCol.folder ? Number(newCol.folder) : null } })),
    onSuccess: () => (setNewCol({ name: "", folder: "" }), reload()),
  });
  const folderErrs = fieldErrors(addFolder.error);
  const colErrs = fieldErrors(addCol.error);
  const folderName = (id: number | null) => folders.data?.find((f) => f.id === id)?.name;
  return (
    <section>
      <h1>Collections</h1>
      <p className="muted">Your own sets of questions, filed in folders. Add questions from Browse questions.</p>
      <div className="learn-columns">
        <section aria-labelledby="folders-h">
          <h2 id="folders-h">Folders</h2>
          <form className="row" onSubmit={(e) => (e.preventDefault(), addFolder.mutate())}>
            <Field id="new-folder" label="New folder" error={folderErrs.name}>
              <input required value={newFolder} onChange={(e) => setNewFolder(e.target.value)} />
            </Field>
            <button type="submit" disabled={addFolder.isPending}>
              Add folder
            </button>
          </form>
          <Failed m={addFolder} />
          <Status q={folders} />
          {folders.data?.length === 0 && <p>No folder yet.</p>}
          <ul className="plain">
            {(folders.data ?? []).map((f) => (
              <Renamable
                key={f.id}
                rowId={f.id}
                kind="folder"
                name={f.name}
                extra={`${f.collections} collection${f.collections === 1 ? "" : "s"}`}
                rename={async (name) => must(await api.PATCH("/api/v1/folders/{folder_id}", { params: { path: { folder_id: f.id } }, body: { name } }))}
                remove={async () => ok(await api.DELETE("/api/v1/folders/{folder_id}", { params: { path: { folder_id: f.id } } }))}
                onDone={reload}
              />
            ))}
          </ul>
        </section>
        <section aria-labelledby="collections-h">
          <h2 id="collections-h">Collections</h2>
          <form className="row" onSubmit={(e) => (e.preventDefault(), addCol.mutate())}>
            <Field id="new-collection" label="New collection" error={colErrs.name}>
              <input required value={newCol.name} onChange={(e) => setNewCol({ ...newCol, name: e.target.value })} />
            </Field>
            <Field id="new-collection-folder" label="In folder" error={colErrs.folder_id}>
              <select value={newCol.folder} onChange={(e) => setNewCol({ ...newCol, folder: e.target.value })}>
                <option value="">None</option>
                {(folders.data ?? []).map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </select>
            </Field>
            <button type="submit" disabled={addCol.isPending}>
              Add collection
            </button>
          </form>
          <Failed m={addCol} />
          <Status q={cols} />
          {cols.data?.length === 0 && <p>No collection yet.</p>}
          <ul className="plain">
            {(cols.data ?? []).map((c) => (
              <Renamable
                key={c.id}
                rowId={c.id}
                kind="collection"
                name={c.name}
                extra={`${c.questions} question${c.questions === 1 ? "" : "s"}${c.folder_id ? ` · in ${folderName(c.folder_id) ?? "a folder"}` : ""}`}
                rename={async (name) => must(await api.PATCH("/api/v1/collections/{collection_id}", { params: { path: { collection_id: c.id } }, body: { name } }))}
                remove={async () => {
                  ok(await api.DELETE("/api/v1/collections/{collection_id}", { params: { path: { collection_id: c.id } } }));
                  if (open === c.id) setOpen(null);
                }}
                onDone={reload}
              >
                <button aria-expanded={open === c.id} onClick={() => setOpen(open === c.id ? null : c.id)} aria-label={`${open === c.id ? "Close" : "Open"} the collection ${c.name}`}>
                  {open === c.id ? "Close" : "Open"}
                </button>
                <label htmlFor={`file-${c.id}`} className="sr-only">
                  Folder of {c.name}
                </label>
                <FileIn id={`file-${c.id}`} collection={c} folders={folders.data ?? []} onDone={reload} />
              </Renamable>
            ))}
          </ul>
        </section>
      </div>
      {open !== null && <CollectionDetail key={open} id={open} />}
    </section>
  );
}

type Collection = components["schemas"]["CollectionResponse"];
type Folder = components["schemas"]["FolderResponse"];

/** FileIn moves a collection into a folder (or out of every folder). */
function FileIn({ id, collection, folders, onDone }: { id: string; collection: Collection; folders: Folder[]; onDone: () => void }) {
  const move = useMutation({
    mutationFn: async (folder: string) =>
      must(await api.PATCH("/api/v1/collections/{collection_id}", { params: { path: { collection_id: collection.id } }, body: { folder_id: folder ? Number(folder) : null } })),
    onSuccess: onDone,
  });
  return (
    <>
      <select id={id} value={collection.folder_id ?? ""} disabled={move.isPending} onChange={(e) => move.mutate(e.target.value)}>
        <option value="">No folder</option>
        {folders.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
      {move.error && (
        <span role="alert" className="error">
          {move.error.message}
        </span>
      )}
    </>
  );
}

/** Renamable is a folder or collection row: its name, renamed in place, and a delete. */
function Renamable(props: {
  rowId: number;
  kind: string;
  name: string;
  extra: string;
  rename: (name: string) => Promise<unknown>;
  remove: () => Promise<unknown>;
  onDone: () => void;
  children?: ReactNode;
}) {
  const { kind, name } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useMutation({ mutationFn: () => props.rename(draft ?? name), onSuccess: () => (setDraft(null), props.onDone()) });
  const remove = useMutation({ mutationFn: props.remove, onSuccess: props.onDone });
  const id = `rename-${kind}-${props.rowId}`;
  return (
    <li className="card">
      {draft === null ? (
        <p>
          <strong>{name}</strong> <span className="muted">{props.extra}</span>
        </p>
      ) : (
        <form className="row" onSubmit={(e) => (e.preventDefault(), rename.mutate())}>
          <Field id={id} label={`New name of the ${kind} ${name}`} error={fieldErrors(rename.error).name}>
            <input required autoFocus value={draft} onChange={(e) => setDraft(e.target.value)} />
          </Field>
          <button type="submit" className="primary" disabled={rename.isPending}>
            Save name
          </button>
          <button type="button" onClick={() => (setDraft(null), rename.reset())}>
            Cancel
          </button>
        </form>
      )}
      <p className="actions">
        {props.children}
        {draft === null && (
          <button onClick={() => setDraft(name)} aria-label={`Rename the ${kind} ${name}`}>
            Rename
          </button>
        )}
        <button disabled={remove.isPending} onClick={() => confirm(`Delete the ${kind} ${name}?`) && remove.mutate()} aria-label={`Delete the ${kind} ${name}`}>
          Delete
        </button>
      </p>
      <Failed m={rename} />
      <Failed m={remove} />
    </li>
  );
}

/** CollectionDetail lists a collection's questions (their stems read one by one) with a remove each. */
function CollectionDetail({ id }: { id: number }) {
  const qc = useQueryClient();
  const res = useQuery({ queryKey: ["collection", id], queryFn: async () => must(await api.GET("/api/v1/collections/{collection_id}", { params: { path: { collection_id: id } } })) });
  const take = useMutation({
    mutationFn: async (question: number) =>
      ok(await api.DELETE("/api/v1/collections/{collection_id}/questions/{question_id}", { params: { path: { collection_id: id, question_id: question } } })),
    onSuccess: () => (qc.invalidateQueries({ queryKey: ["collection", id] }), qc.invalidateQueries({ queryKey: ["collections"] })),
  });
  if (!res.data) return <Status q={res} />;
  const c = res.data;
  return (
    <section aria-labelledby="collection-h">
      <h2 id="collection-h">{c.name}</h2>
      {c.description && <p>{c.description}</p>}
      <Failed m={take} />
      {!c.question_ids?.length ? (
        <p>No question in it yet.</p>
      ) : (
        <ol className="bank">
          {c.question_ids.map((q) => (
            <li key={q}>
              <Stem id={q} />
              <button disabled={take.isPending} onClick={() => take.mutate(q)} aria-label={`Remove question ${q} from ${c.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Stem({ id }: { id: number }) {
  const q = useQuery({ queryKey: ["question", id], queryFn: async () => must(await api.GET("/api/v1/questions/detail/{id}", { params: { path: { id } } })) });
  return <p>{q.data ? q.data.question_text : q.isError ? `Question ${id} (${q.error.message})` : `Question ${id}`}</p>;
}
