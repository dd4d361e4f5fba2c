// The moderator's question bank: search, narrow to a category's branch,
// page through, open a question to edit, or write a new one.
import { Markdown } from "../../ui/Markdown";
import { useState } from "react";
import { useBank, type Mode } from "../../api/questions";
import { Link } from "../../router";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Pager } from "../../ui/Pager";
import { SearchMode } from "../../ui/SearchMode";
import { Field, Status } from "../../ui/ui";

const pageSize = 25;

export function Bank() {
  const [form, setForm] = useState({ q: "", mode: "keyword" as Mode, category: "" });
  const [applied, setApplied] = useState(form);
  const [offset, setOffset] = useState(0);
  const res = useBank({ q: applied.q || undefined, search_mode: applied.mode, category_id: applied.category ? Number(applied.category) : undefined }, pageSize, offset);
  const rows = res.data?.questions ?? [];
  return (
    <section>
      <div className="title-row">
        <h1>Question bank</h1>
        <Link className="button primary" href="/questions/new">
          New question
        </Link>
      </div>
      <form className="row" aria-label="Search the bank" onSubmit={(e) => (e.preventDefault(), setOffset(0), setApplied(form))}>
        <Field id="bank-q" label="Search">
          <input type="search" value={form.q} onChange={(e) => setForm({ ...form, q: e.target.value })} />
        </Field>
        <Field id="bank-mode" label="Mode">
          <SearchMode value={form.mode} onChange={(mode) => setForm({ ...form, mode })} />
        </Field>
        <Field id="bank-category" label="Category">
          <CategoryPicker value={form.category} onChange={(category) => setForm({ ...form, category })} none="Any category" count />
        </Field>
        <button type="submit">Search</button>
      </form>
      <Status q={res} what="the bank" />
      {res.data && (
        <>
          <p className="muted" data-testid="bank-count">
            {res.data.total === 0 ? "No question matches." : `${offset + 1}–${offset + rows.length} of ${res.data.total} questions`}
          </p>
          <ol className="bank" start={offset + 1}>
            {rows.map((x) => (
              <li key={x.id}>
                <Markdown text={x.question_text} />
                <p className="muted">
                  {x.quiz_title ?? "no quiz"} · {x.question_category_name ?? "uncategorised"} ·{" "}
                  <Link href={`/questions/${x.id}/edit`} aria-label={`Edit question ${x.id}`}>
                    Edit
                  </Link>
                </p>
              </li>
            ))}
          </ol>
          <Pager label="Question bank" offset={offset} size={pageSize} shown={rows.length} total={res.data.total} onMove={setOffset} />
        </>
      )}
    </section>
  );
}
