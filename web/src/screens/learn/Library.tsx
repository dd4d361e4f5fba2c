// The library: search the published articles, the recently opened ones,
// and the reader with cross-references previewed on hover or focus.
import { useState, type FocusEvent, type MouseEvent } from "react";
import { useArticleBySlug, useArticles, usePreview, useRecentArticles } from "../../api/library";
import { Link, navigate } from "../../router";
import { Field, Status, when } from "../../ui/ui";

export function Library() {
  const [q, setQ] = useState("");
  const [applied, setApplied] = useState("");
  const list = useArticles({ q: applied || undefined });
  const recent = useRecentArticles();
  return (
    <section>
      <h1>Library</h1>
      <form className="row" role="search" onSubmit={(e) => (e.preventDefault(), setApplied(q.trim()))}>
        <Field id="library-q" label="Search articles">
          <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      {!!recent.data?.length && (
        <p className="muted">
          Recently opened:{" "}
          {recent.data.map((a, i) => (
            <span key={a.id}>
              {i > 0 && " · "}
              <Link href={`/articles/${a.slug}`}>{a.title}</Link>
            </span>
          ))}
        </p>
      )}
      <Status q={list} what="the library" />
      <ul className="cards">
        {(list.data ?? []).map((a) => (
          <li key={a.id} className="card">
            <h2>
              <Link href={`/articles/${a.slug}`}>{a.title}</Link>
            </h2>
            {a.summary && <p>{a.summary}</p>}
            <p className="muted">Updated {when(a.updated_at)}</p>
          </li>
        ))}
      </ul>
      {list.isSuccess && !list.data.length && <p>{applied ? "No article matches." : "The library is empty."}</p>}
    </section>
  );
}

/** xrefSlug is the target slug of an in-library link (the server renders
 * cross-references as /articles/<slug>[#section]). */
function xrefSlug(el: EventTarget): { slug: string; href: string } | null {
  const a = el instanceof Element ? el.closest("a") : null;
  const href = a?.getAttribute("href") ?? "";
  const m = /^\/articles\/([^/#?]+)/.exec(href);
  return m ? { slug: decodeURIComponent(m[1]), href } : null;
}

export function Article({ slug }: { slug: string }) {
  const res = useArticleBySlug(slug);
  const [hover, setHover] = useState<string | null>(null);
  const preview = usePreview(hover);

  // Cross-references open in the client; hovering or focusing one previews it.
  const onClick = (e: MouseEvent) => {
    const x = xrefSlug(e.target);
    if (!x || e.button !== 0 || e.metaKey || e.ctrlKey) return;
    e.preventDefault();
    setHover(null);
    navigate(x.href);
  };
  const onOver = (e: MouseEvent | FocusEvent) => setHover(xrefSlug(e.target)?.slug ?? null);

  if (!res.data) return <Status q={res} what="the article" />;
  const a = res.data;
  return (
    <article className="reader">
      <p className="muted">
        <Link href="/library">Library</Link> ›
      </p>
      <h1>{a.title}</h1>
      {a.summary && <p className="lead">{a.summary}</p>}
      {(a.sections ?? []).length > 1 && (
        <nav aria-label="Sections" className="toc">
          <ol>
            {(a.sections ?? []).map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.heading}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div onClick={onClick} onMouseOver={onOver} onFocus={onOver}>
        {(a.sections ?? []).map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`h-${s.id}`}>
            <h2 id={`h-${s.id}`}>{s.heading}</h2>
            {/* The server renders markdown in safe mode (no raw HTML, no script links). */}
            <div className="prose" dangerouslySetInnerHTML={{ __html: s.html }} />
          </section>
        ))}
      </div>
      {hover && preview.data && (
        <aside className="preview" aria-live="polite" aria-label="Preview">
          <strong>{preview.data.title}</strong>
          {preview.data.summary && <p>{preview.data.summary}</p>}
          {preview.data.lead && <p className="muted">{preview.data.lead}</p>}
        </aside>
      )}
      {!!a.references?.length && (
        <section aria-labelledby="refs">
          <h2 id="refs">References</h2>
          <ol>
            {a.references.map((r, i) => (
              <li key={i}>{r.url && /^https?:\/\//i.test(r.url) ? <a href={r.url} rel="noreferrer noopener">{r.citation || r.url}</a> : r.citation}</li>
            ))}
          </ol>
        </section>
      )}
      <p className="muted">Updated {when(a.updated_at)}</p>
    </article>
  );
}
