// The learner's side of the bank: browse what reaches you with the bank's
// filters, favourite, file questions in collections, keep notes, and build
// a test of your own to sit (moderators: a quiz of any questions).
import { Markdown } from "../../ui/Markdown";
import { useState } from "react";
import { useBank, useDeleteNote, useFavourites, useNotes, useSaveNote, useTags, useToggleFavourite, type BankQuery, type BankQuestion, type Mode, type Note } from "../../api/questions";
import { useCollections, useFileQuestion } from "../../api/collections";
import { maxSavedTest, useBuildTest } from "../../api/quizzes";
import { navigate } from "../../router";
import { fieldErrors } from "../../lib/edit";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Pager } from "../../ui/Pager";
import { SearchMode } from "../../ui/SearchMode";
import { Failed, Field, Status, when } from "../../ui/ui";

type Filters = { q: string; mode: Mode; categories: number[]; tags: number[]; favorites: boolean; uncategorized: boolean };

const pageSize = 20;
const none: Filters = { q: "", mode: "keyword", categories: [], tags: [], favorites: false, uncategorized: false };

/** query is the bank's filter set as the listing and the id list take it. */
const query = (f: Filters): BankQuery => ({
  q: f.q || undefined,
  category_ids: f.categories.length ? f.categories : undefined,
  tag_ids: f.tags.length ? f.tags : undefined,
  favorites_only: f.favorites || undefined,
  uncategorized: f.uncategorized || undefined,
});

/** opening is the filters a link opens the page with: ?category=N (the
 * dashboard's accuracy bars) narrows to that category's branch. */
const opening = (): Filters => {
  const c = Number(new URLSearchParams(location.search).get("category"));
  return c > 0 ? { ...none, categories: [c] } : none;
};

export function Browse({ moderator = false }: { moderator?: boolean }) {
  const [form, setForm] = useState<Filters>(opening);
  const [applied, setApplied] = useState<Filters>(opening);
  const [offset, setOffset] = useState(0);
  const tags = useTags();
  const res = useBank({ ...query(applied), search_mode: applied.mode }, pageSize, offset);
  const favs = useFavourites();
  const ids = (res.data?.questions ?? []).map((x) => x.id);
  const notes = useNotes(ids);
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
          <SearchMode value={form.mode} onChange={(mode) => setForm({ ...form, mode })} />
        </Field>
        <Field id="learn-cats" label="Categories">
          <CategoryPicker multiple size={4} value={form.categories} onChange={(categories) => setForm({ ...form, categories })} />
        </Field>
        <Field id="learn-tags" label="Tags (all of)">
          <select multiple size={4} value={form.tags.map(String)} onChange={(e) => setForm({ ...form, tags: [...e.target.selectedOptions].map((o) => Number(o.value)) })}>
            {(tags.data ?? []).map((t) => (
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
      <BuildTest moderator={moderator} filters={query(applied)} total={total} />
      <Status q={res} what="the questions" />
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
          <Pager label="Questions" offset={offset} size={pageSize} shown={res.data.questions?.length ?? 0} total={total} onMove={setOffset} />
        </>
      )}
    </section>
  );
}

/** FavouriteButton stars or unstars a question for the signed-in person
 * (the bank browser and the attempt review share it). */
export function FavouriteButton({ questionId, favourite }: { questionId: number; favourite: boolean }) {
  const fav = useToggleFavourite(questionId);
  return (
    <>
      <button aria-pressed={favourite} disabled={fav.isPending} onClick={() => fav.mutate(favourite)} aria-label={`Favourite question ${questionId}`}>
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
      <Markdown className="stem-text" text={x.question_text} />
      {x.options && x.options.length > 0 && (
        <ol className="options" type="A">
          {x.options.map((o, i) => (
            <li key={i}>
              <Markdown inline text={o} />
            </li>
          ))}
        </ol>
      )}
      {x.correct_answer && (
        <p>
          <strong>Answer:</strong> {x.correct_answer}
        </p>
      )}
      {x.explanation && <Markdown className="muted" text={x.explanation} />}
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
  const [pick, setPick] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const add = useFileQuestion(questionId, (c) => setDone(`Added to ${cols.data?.find((x) => x.id === c)?.name}.`));
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
      <button disabled={!pick || add.isPending} onClick={() => (setDone(null), add.mutate(Number(pick)))} aria-label={`Add question ${questionId} to the collection`}>
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
export function NoteEditor({ questionId, note }: { questionId: number; note?: Note }) {
  const [draft, setDraft] = useState<string | null>(null);
  const save = useSaveNote(questionId, () => setDraft(null));
  const remove = useDeleteNote(questionId);
  const id = `note-${questionId}`;
  if (draft !== null)
    return (
      <form className="note" onSubmit={(e) => (e.preventDefault(), save.mutate(draft))}>
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

/** BuildTest makes a test of the listed questions or of a category's branch
 * and opens its sitting. */
function BuildTest({ moderator, filters, total }: { moderator: boolean; filters: BankQuery; total: number }) {
  const [title, setTitle] = useState("");
  const [mode, setMode] = useState<"timed" | "learning">("timed");
  const [minutes, setMinutes] = useState("");
  const [from, setFrom] = useState("");
  const build = useBuildTest(moderator, (quiz, b) => navigate(`/quizzes/${quiz}/sit${b.mode === "learning" ? "?study=1" : ""}`));
  const errs = fieldErrors(build.error);
  return (
    <details className="panel build">
      <summary>Build a test</summary>
      <form
        onSubmit={(e) => (
          e.preventDefault(),
          build.mutate({ title, mode, minutes: minutes ? Number(minutes) : undefined, from: from ? { category: Number(from) } : filters })
        )}
      >
        <div className="row">
          <Field id="build-title" label="Title" error={errs.title}>
            <input required value={title} onChange={(e) => setTitle(e.target.value)} />
          </Field>
          <Field id="build-from" label="Questions from">
            <CategoryPicker value={from} onChange={setFrom} none={`The current filters (${total})`} count />
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
