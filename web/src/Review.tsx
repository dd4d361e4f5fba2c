import { useQuery } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link } from "./router";
import { peerLine } from "./quiz";
import { FavouriteButton } from "./Learn";

export function Review({ attemptId }: { attemptId: number }) {
  const res = useQuery({
    queryKey: ["attempt", attemptId],
    queryFn: async () => must(await api.GET("/api/v1/attempts/{attempt_id}", { params: { path: { attempt_id: attemptId } } })),
  });
  const submitted = !!res.data?.completed_at;
  const peers = useQuery({
    queryKey: ["attempt-peers", attemptId],
    enabled: submitted,
    // Everyone's figures count this sitting from its submitted event, a
    // moment after the submit: ask again for a while until it is in them.
    refetchInterval: (q) => (q.state.data?.sittings === 0 && q.state.dataUpdateCount < 20 ? 1000 : false),
    queryFn: async () =>
      must(await api.GET("/api/v1/attempts/{attempt_id}/peers", { params: { path: { attempt_id: attemptId } } })),
  });
  const favs = useQuery({ queryKey: ["favorites"], queryFn: async () => new Set(must(await api.GET("/api/v1/favorites")) ?? []) });
  const peerOf = new Map((peers.data?.questions ?? []).map((q) => [q.question_id, q]));
  if (res.isPending) return <p aria-live="polite">Loading…</p>;
  if (res.isError) return <p role="alert">Could not load the attempt: {res.error.message}</p>;
  const a = res.data;
  return (
    <section>
      <h1>Review: {a.quiz_title}</h1>
      <p className="score" data-testid="score">
        {a.completed_at ? (
          <>
            Score <strong>{a.score}/{a.total_questions}</strong> ({Math.round(a.percentage ?? 0)}%)
            {a.auto_submitted && " · submitted when time ran out"}
          </>
        ) : (
          <>Not submitted yet. <Link href={`/quizzes/${a.quiz_id}/sit`}>Continue</Link></>
        )}
      </p>
      {peers.data?.percentile != null && (
        <p data-testid="percentile">
          Your percentile: <strong>{Math.round(peers.data.percentile)}</strong> among the {peers.data.sittings}{" "}
          {peers.data.sittings === 1 ? "timed sitting" : "timed sittings"} of this quiz.
        </p>
      )}
      <ol className="review">
        {(a.answers ?? []).map((x) => (
          <li key={x.question_id} className={x.is_correct ? "right" : "wrong"}>
            <p className="stem">{x.question_text}</p>
            <p>
              Your answer: <strong>{x.user_answer || "not answered"}</strong> {x.is_correct ? "✓ correct" : "✗ incorrect"}
            </p>
            {a.answers_shown && !x.is_correct && x.correct_answer && <p>Correct answer: <strong>{x.correct_answer}</strong></p>}
            {a.answers_shown && x.explanation && <p className="muted">{x.explanation}</p>}
            {peerOf.has(x.question_id) && peerLine(peerOf.get(x.question_id)!) && (
              <p className="muted peers">{peerLine(peerOf.get(x.question_id)!)}</p>
            )}
            {favs.data && (
              <p className="actions">
                <FavouriteButton questionId={x.question_id} favourite={favs.data.has(x.question_id)} />
              </p>
            )}
          </li>
        ))}
      </ol>
      <p className="actions">
        <Link className="button" href={`/quizzes/${a.quiz_id}/sit`}>Sit again</Link>
        <Link className="button" href="/">Dashboard</Link>
      </p>
    </section>
  );
}
