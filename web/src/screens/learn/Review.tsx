// The review of an attempt: the score, everyone's answers, and each
// question with the learner's answer, their flag and the teaching it
// carries; filtered to the wrong or flagged ones, with a report and the
// tutor a click away.
import { useState } from "react";
import { useAttempt, usePeers } from "../../api/attempts";
import { useFavourites } from "../../api/questions";
import { Link } from "../../router";
import { peerLine } from "../../lib/quiz";
import { Status } from "../../ui/ui";
import { FavouriteButton } from "./Browse";
import { AnswerSide, Options } from "./AnswerSide";
import { QuestionTools } from "./QuestionTools";
import { Markdown } from "../../ui/Markdown";

type Filter = "all" | "incorrect" | "flagged";

export function Review({ attemptId }: { attemptId: number }) {
  const res = useAttempt(attemptId);
  const submitted = !!res.data?.completed_at;
  const peers = usePeers(attemptId, submitted);
  const favs = useFavourites();
  const [filter, setFilter] = useState<Filter>("all");
  if (!res.data) return <Status q={res} what="the attempt" />;
  const a = res.data;
  const peerOf = new Map((peers.data?.questions ?? []).map((q) => [q.question_id, q]));
  const all = [...(a.answers ?? [])].sort((x, y) => x.position - y.position);
  const counts: Record<Filter, number> = {
    all: all.length,
    incorrect: all.filter((x) => x.is_correct === false).length,
    flagged: all.filter((x) => x.flagged).length,
  };
  const shown = all.filter((x) => filter === "all" || (filter === "incorrect" ? x.is_correct === false : x.flagged));
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
          <>
            Not submitted yet. <Link href={`/quizzes/${a.quiz_id}/sit`}>Continue</Link>
          </>
        )}
      </p>
      {peers.data?.percentile != null && (
        <p data-testid="percentile">
          Your percentile: <strong>{Math.round(peers.data.percentile)}</strong> among the {peers.data.sittings}{" "}
          {peers.data.sittings === 1 ? "timed sitting" : "timed sittings"} of this quiz.
        </p>
      )}
      <p className="actions tabs" role="group" aria-label="Show">
        {(["all", "incorrect", "flagged"] as Filter[]).map((f) => (
          <button key={f} aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {f === "all" ? "All" : f === "incorrect" ? "Incorrect" : "Flagged"} <span className="muted">({counts[f]})</span>
          </button>
        ))}
      </p>
      {shown.length === 0 && <p>{filter === "flagged" ? "You flagged no question in this attempt." : "No incorrect answer: well done."}</p>}
      <ol className="review">
        {shown.map((x) => {
          const n = x.position + 1;
          const peer = peerOf.get(x.question_id);
          return (
            <li key={x.question_id} value={n} className={x.is_correct ? "right" : "wrong"} aria-label={`Question ${n}`}>
              {x.flagged && <p className="badge flag">flagged</p>}
              <Markdown className="stem" text={x.question_text} />
              {x.image_path && <img className="q-image" src={`/uploads/${x.image_path}`} alt={`Image for question ${n}`} />}
              <p>
                Your answer: <strong className="given">{x.user_answer || "not answered"}</strong> {x.is_correct ? "✓ correct" : "✗ incorrect"}
              </p>
              {a.answers_shown && (
                <>
                  <Options q={x} picked={x.user_answer} />
                  {x.question_type !== "mcq" && x.correct_answer && (
                    <p>
                      Accepted answers: <strong>{x.correct_answer.split("|").join(", ")}</strong>
                    </p>
                  )}
                  <AnswerSide q={x} />
                </>
              )}
              {peer && peerLine(peer) && <p className="muted peers">{peerLine(peer)}</p>}
              <div className="actions">
                {favs.data && <FavouriteButton questionId={x.question_id} favourite={favs.data.has(x.question_id)} />}
              </div>
              {a.completed_at && <QuestionTools questionId={x.question_id} attemptId={a.id} n={n} />}
            </li>
          );
        })}
      </ol>
      <p className="actions">
        <Link className="button" href={`/quizzes/${a.quiz_id}/sit`}>
          Sit again
        </Link>
        <Link className="button" href="/">
          Dashboard
        </Link>
      </p>
    </section>
  );
}
