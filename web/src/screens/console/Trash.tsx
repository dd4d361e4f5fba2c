// The trash: trashed questions and quizzes, paged, each restored or (after
// asking) deleted for good.
import { useState, type ReactNode } from "react";
import { usePurgeQuestion, useQuestionTrash, useRestoreQuestion } from "../../api/questions";
import { usePurgeQuiz, useQuizTrash, useRestoreQuiz } from "../../api/quizzes";
import { ActionTable, type Column } from "../../ui/ActionTable";
import { Pager } from "../../ui/Pager";
import { Failed, Status, when } from "../../ui/ui";

const PAGE = 20;

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

type Write<V> = { mutate: (v: V) => void; isPending: boolean; error: Error | null };

/** TrashList is one kind of trashed thing, paged, each row with Restore
 * and a confirmed Delete for good; the kinds differ only in what they show. */
function TrashList<T extends { id: number }>(props: {
  kind: "question" | "quiz";
  heading: ReactNode;
  q: { data?: T[]; isPending: boolean; isError: boolean; error: Error | null };
  total?: number;
  offset: number;
  setOffset: (o: number) => void;
  columns: Column<T>[];
  name: (row: T) => string;
  warning: (name: string) => string;
  restore: Write<T>;
  purge: Write<T>;
}) {
  const { kind, q, offset, setOffset, restore, purge } = props;
  const rows = q.data ?? [];
  const label = `Trashed ${kind === "quiz" ? "quizzes" : "questions"}`;
  // A page emptied by the last action steps back one.
  if (q.data && rows.length === 0 && offset > 0) setOffset(Math.max(0, offset - PAGE));
  return (
    <section aria-labelledby={`trash-${kind}-h`}>
      <h2 id={`trash-${kind}-h`}>
        {props.heading} {props.total != null && <span className="muted">({props.total})</span>}
      </h2>
      <Status q={q} what={label.toLowerCase()} />
      <Failed m={restore} />
      <Failed m={purge} />
      {q.data && rows.length === 0 && <p>No trashed {kind}.</p>}
      {rows.length > 0 && (
        <ActionTable
          label={label}
          rows={rows}
          rowKey={(r) => r.id}
          columns={props.columns}
          actions={(row) => (
            <>
              <button disabled={restore.isPending} onClick={() => restore.mutate(row)} aria-label={`Restore ${kind} ${props.name(row)}`}>
                Restore
              </button>
              <button
                className="danger"
                disabled={purge.isPending}
                onClick={() => confirm(props.warning(props.name(row))) && purge.mutate(row)}
                aria-label={`Delete for good ${kind} ${props.name(row)}`}
              >
                Delete for good
              </button>
            </>
          )}
        />
      )}
      <Pager label={label} offset={offset} size={PAGE} shown={rows.length} total={props.total} onMove={setOffset} />
    </section>
  );
}

function TrashedQuestions({ onDone }: { onDone: (msg: string) => void }) {
  const [offset, setOffset] = useState(0);
  const res = useQuestionTrash(PAGE, offset);
  const restore = useRestoreQuestion(onDone);
  const purge = usePurgeQuestion(onDone);
  return (
    <TrashList
      kind="question"
      heading="Questions"
      q={{ ...res, data: res.data ? (res.data.questions ?? []) : undefined }}
      total={res.data?.total}
      offset={offset}
      setOffset={setOffset}
      columns={[
        { header: "Question", cell: (q) => <span className="trash-stem">{q.question_text}</span> },
        { header: "Category", cell: (q) => q.question_category_name ?? "–" },
        { header: "Trashed", cell: (q) => when(q.deleted_at) },
      ]}
      name={(q) => String(q.id)}
      warning={(name) => `Delete question ${name} for good? This cannot be undone.`}
      restore={{ ...restore, mutate: (q) => restore.mutate(q.id) }}
      purge={{ ...purge, mutate: (q) => purge.mutate(q.id) }}
    />
  );
}

function TrashedQuizzes({ onDone }: { onDone: (msg: string) => void }) {
  const [offset, setOffset] = useState(0);
  const res = useQuizTrash(PAGE, offset);
  const restore = useRestoreQuiz(onDone);
  const purge = usePurgeQuiz(onDone);
  return (
    <TrashList
      kind="quiz"
      heading="Quizzes"
      q={res}
      offset={offset}
      setOffset={setOffset}
      columns={[
        { header: "Quiz", cell: (z) => z.title },
        { header: "Questions", num: true, cell: (z) => z.questions_count },
        { header: "Trashed", cell: (z) => when(z.deleted_at) },
      ]}
      name={(z) => z.title}
      warning={(name) => `Delete quiz “${name}” for good? Its questions stay in the bank.`}
      restore={{ ...restore, mutate: (z) => restore.mutate(z.id) }}
      purge={{ ...purge, mutate: (z) => purge.mutate({ id: z.id, title: z.title }) }}
    />
  );
}
