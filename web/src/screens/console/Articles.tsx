// The article editor: the articles a moderator may edit, and one article's
// text and sections, its status moves, revisions, figures and AI tools.
import { useState } from "react";
import { useArticles, useEditedArticle, useMoveArticle, useRestoreRevision, useRevisions, useSaveArticle, useStartArticle, type SectionEdit as Section, type Status as Status_ } from "../../api/library";
import { Link, navigate } from "../../router";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Field, Status, Submit, when } from "../../ui/ui";
import { AiDraft, AiTools, Figures } from "./ArticleTools";

// The moves the server allows from each status.
const moves: Record<Status_, Status_[]> = {
  draft: ["review", "published"],
  review: ["draft", "published"],
  published: ["archived"],
  archived: ["draft", "published"],
};

/** Articles lists what the moderator may edit, drafts included, and starts a new one. */
export function ArticleList() {
  const list = useArticles({ editable: true });
  const [title, setTitle] = useState("");
  const create = useStartArticle((a) => navigate(`/write/${a.id}`));
  return (
    <section>
      <h1>Articles</h1>
      <form className="row" onSubmit={(e) => (e.preventDefault(), create.mutate(title))}>
        <Field id="article-title" label="New article title">
          <input required maxLength={300} value={title} onChange={(e) => setTitle(e.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={create.isPending}>
          Start a draft
        </button>
      </form>
      <Failed m={create} />
      <AiDraft />
      <Status q={list} />
      {list.data && (
        <ActionTable
          label="Articles"
          rows={list.data}
          rowKey={(a) => a.id}
          columns={[
            { header: "Title", cell: (a) => <Link href={`/write/${a.id}`}>{a.title}</Link> },
            { header: "Updated", cell: (a) => when(a.updated_at) },
          ]}
        />
      )}
    </section>
  );
}

/** ArticleEditor edits an article's text and sections, moves it between
 * statuses and restores a revision; each save keeps the old state as one. */
export function ArticleEditor({ id }: { id: number }) {
  const res = useEditedArticle(id);
  const revs = useRevisions(id);
  const [draft, setDraft] = useState<{ title: string; summary: string; slug: string; sections: Section[]; note: string } | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const a = res.data;
  const d = draft ?? (a ? { title: a.title, summary: a.summary, slug: a.slug, sections: (a.sections ?? []).map(({ id, heading, markdown }) => ({ id, heading, markdown })), note: "" } : null);
  const save = useSaveArticle(id, (next) => {
    setDraft(null);
    const broken = next.broken_links?.length ?? 0;
    setResult(broken ? `Saved, with ${broken} cross-reference${broken > 1 ? "s" : ""} to a missing article.` : "Saved.");
  });
  const move = useMoveArticle(id, (next) => (setDraft(null), setResult(`Now ${next.status}.`)));
  const restore = useRestoreRevision(id, () => (setDraft(null), setResult("Revision restored.")));
  if (!a || !d) return <Status q={res} what="the article" />;
  const edit = (p: Partial<typeof d>) => setDraft({ ...d, ...p });
  const sec = (i: number, p: Partial<Section>) => edit({ sections: d.sections.map((s, j) => (j === i ? { ...s, ...p } : s)) });
  const swap = (i: number, j: number) => {
    const s = [...d.sections];
    [s[i], s[j]] = [s[j], s[i]];
    edit({ sections: s });
  };
  return (
    <section>
      <p className="muted">
        <Link href="/write">Articles</Link> ›
      </p>
      <h1>Edit: {a.title}</h1>
      <p className="actions">
        <span className={`badge ${a.status === "published" ? "ok" : ""}`}>{a.status}</span>
        {moves[a.status as Status_]?.map((s) => (
          <button key={s} disabled={move.isPending} onClick={() => (setResult(null), move.mutate(s))}>
            {s === "review" ? "Send to review" : s === "published" ? "Publish" : s === "archived" ? "Archive" : "Back to draft"}
          </button>
        ))}
        {a.status === "published" && <Link href={`/articles/${a.slug}`}>Open in the library</Link>}
      </p>
      <p role="status" data-testid="editor-result">{result}</p>
      <Failed m={move} />
      <Failed m={restore} />
      <form
        className="stack"
        onSubmit={(e) => (
          e.preventDefault(),
          setResult(null),
          save.mutate({ title: d.title, summary: d.summary, slug: d.slug, sections: d.sections, note: d.note || undefined })
        )}
      >
        <Field id="art-title" label="Title">
          <input required value={d.title} onChange={(e) => edit({ title: e.target.value })} />
        </Field>
        <Field id="art-slug" label="Slug">
          <input value={d.slug} onChange={(e) => edit({ slug: e.target.value })} />
        </Field>
        <Field id="art-summary" label="Summary">
          <textarea rows={2} value={d.summary} onChange={(e) => edit({ summary: e.target.value })} />
        </Field>
        <h2>Sections</h2>
        <p className="muted">
          Markdown; link another article with <code>[[slug]]</code> or <code>[[slug#section|label]]</code>.
        </p>
        {d.sections.map((s, i) => (
          <fieldset key={s.id ?? `new-${i}`} className="section-edit">
            <legend>Section {i + 1}</legend>
            <Field id={`sec-heading-${i}`} label="Heading">
              <input required value={s.heading} onChange={(e) => sec(i, { heading: e.target.value })} />
            </Field>
            <Field id={`sec-text-${i}`} label={`Text of section ${i + 1}`}>
              <textarea rows={6} value={s.markdown} onChange={(e) => sec(i, { markdown: e.target.value })} />
            </Field>
            <p className="actions">
              <button type="button" disabled={i === 0} onClick={() => swap(i, i - 1)} aria-label={`Move section ${i + 1} up`}>Up</button>
              <button type="button" disabled={i === d.sections.length - 1} onClick={() => swap(i, i + 1)} aria-label={`Move section ${i + 1} down`}>Down</button>
              <button type="button" onClick={() => edit({ sections: d.sections.filter((_, j) => j !== i) })} aria-label={`Remove section ${i + 1}`}>Remove</button>
            </p>
          </fieldset>
        ))}
        <p>
          <button type="button" onClick={() => edit({ sections: [...d.sections, { heading: "", markdown: "" }] })}>
            Add section
          </button>
        </p>
        <Field id="art-note" label="Note on this change">
          <input value={d.note} onChange={(e) => edit({ note: e.target.value })} />
        </Field>
        <Submit m={save} label="Save" disabled={draft === null} other={draft !== null ? { label: "Discard changes", onClick: () => setDraft(null) } : undefined} />
      </form>
      <Figures articleId={id} sections={a.sections ?? []} locked={draft !== null} />
      <AiTools articleId={id} sections={a.sections ?? []} locked={draft !== null} />
      <h2>Revisions</h2>
      <Status q={revs} what="the revisions" />
      {revs.data && revs.data.length === 0 && <p>No revision yet: one is kept at each save.</p>}
      <ol className="revisions">
        {(revs.data ?? []).map((r) => (
          <li key={r.id}>
            <strong>{r.title}</strong> <span className="muted">{when(r.created_at)} · {r.status}</span>
            {r.note && <> · {r.note}</>}{" "}
            <button disabled={restore.isPending} onClick={() => (setResult(null), restore.mutate(r.id))} aria-label={`Restore the revision of ${when(r.created_at)}`}>
              Restore
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}


