import { useState, type MouseEvent, type FocusEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link, navigate } from "./router";
import { Status, when } from "./ui";

export function Library() {
  const [q, setQ] = useState("");
  const [applied, setApplied] = useState("");
  const list = useQuery({
    queryKey: ["articles", applied],
    queryFn: async () => must(await api.GET("/api/v1/articles/", { params: { query: { q: applied || undefined, limit: 100 } } })),
  });
  // Opening an article changes this list: never serve it from the cache.
  const recent = useQuery({ queryKey: ["articles-recent"], staleTime: 0, queryFn: async () => must(await api.GET("/api/v1/articles/recent", { params: { query: { limit: 5 } } })) });
  return (
    <section>
      <h1>Library</h1>
      <form className="row" role="search" onSubmit={(e) => (e.preventDefault(), setApplied(q.trim()))}>
        <label className="field">
          Search articles <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </label>
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
      <Status q={list} />
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
      {list.isSuccess && !list.data?.length && <p>{applied ? "No article matches." : "The library is empty."}</p>}
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
  const res = useQuery({
    queryKey: ["article", slug],
    queryFn: async () => must(await api.GET("/api/v1/articles/by-slug/{slug}", { params: { path: { slug } } })),
  });
  const [hover, setHover] = useState<string | null>(null);
  const preview = useQuery({
    queryKey: ["article-preview", hover],
    enabled: hover !== null,
    staleTime: 60_000,
    queryFn: async () => must(await api.GET("/api/v1/articles/preview/{slug}", { params: { path: { slug: hover! } } })),
  });

  // Cross-references open in the client; hovering or focusing one previews it.
  const onClick = (e: MouseEvent) => {
    const x = xrefSlug(e.target);
    if (!x || e.button !== 0 || e.metaKey || e.ctrlKey) return;
    e.preventDefault();
    setHover(null);
    navigate(x.href);
  };
  const onOver = (e: MouseEvent | FocusEvent) => setHover(xrefSlug(e.target)?.slug ?? null);

  if (res.isPending || res.isError) return <Status q={res} />;
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
