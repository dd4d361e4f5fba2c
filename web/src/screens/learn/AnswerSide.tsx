// The teaching a question carries once its answer may be seen: the right
// option, why each option is right or wrong, the explanation with its
// image, the key points and the attending's tip. Study mode shows it after
// each answer; the review of a finished attempt under every question.
import { Markdown } from "../../ui/Markdown";

export type Taught = {
  question_text: string;
  options?: string[] | null;
  image_path?: string | null;
  correct_answer?: string | null;
  explanation?: string | null;
  option_explanations?: string[] | null;
  key_points?: string[] | null;
  attending_tip?: string | null;
  explanation_image_path?: string | null;
};

/** Options lists a question's options, marking the right one and the
 * learner's pick once the answer may be seen, each with its explanation. */
export function Options({ q, picked }: { q: Taught; picked?: string | null }) {
  const why = q.option_explanations ?? [];
  if (!q.options?.length) return null;
  return (
    <ol className="options taught" type="A">
      {q.options.map((o, i) => {
        const right = q.correct_answer != null && o === q.correct_answer;
        const wrong = !right && picked != null && o === picked;
        return (
          <li key={i} className={right ? "right" : wrong ? "wrong" : undefined}>
            <span className="option-text">
              <Markdown inline text={o} />
              {right && <strong> ✓ answer</strong>}
              {o === picked && <span className="muted"> (your answer)</span>}
            </span>
            {why[i] && <Markdown inline className="why" text={why[i]} />}
          </li>
        );
      })}
    </ol>
  );
}

/** AnswerSide is the explanation and what comes with it. */
export function AnswerSide({ q }: { q: Taught }) {
  return (
    <div className="taught-more">
      {q.explanation && <Markdown className="explanation" text={q.explanation} />}
      {q.explanation_image_path && <img className="q-image" src={`/uploads/${q.explanation_image_path}`} alt="Image with the explanation" />}
      {!!q.key_points?.length && (
        <div className="key-points">
          <p className="label">Key points</p>
          <ul>
            {q.key_points.map((k, i) => (
              <li key={i}>
                <Markdown inline text={k} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {q.attending_tip && (
        <p className="tip">
          <strong>Attending's tip:</strong> <Markdown inline text={q.attending_tip} />
        </p>
      )}
    </div>
  );
}
