// "Create a block" (UWorld's create test): N questions the learner reaches,
// from categories, narrowed by their own history to unused, incorrect or
// flagged ones, sat timed or in tutor mode.
import { useState } from "react";
import { useBlockCounts, useCustomBlock, type Pool } from "../../api/quizzes";
import { navigate } from "../../router";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Field, Status, Submit } from "../../ui/ui";
import { fieldErrors } from "../../lib/edit";

const pools: [Pool, string][] = [
  ["unused", "Unused: never met in a finished block"],
  ["incorrect", "Incorrect: wrong or blank the last time"],
  ["flagged", "Flagged: flagged the last time"],
];

export function CustomBlock() {
  const [categories, setCategories] = useState<number[]>([]);
  const [chosen, setChosen] = useState<Pool[]>([]);
  const [count, setCount] = useState(10);
  const [mode, setMode] = useState<"timed" | "learning">("timed");
  const [perQuestion, setPerQuestion] = useState(90);
  const counts = useBlockCounts(categories);
  const make = useCustomBlock((id, b) => navigate(`/quizzes/${id}/sit${b.mode === "learning" ? "?study=1" : ""}`));
  const errs = fieldErrors(make.error);
  const c = counts.data;
  // What the chosen pools hold at most (they may overlap, so an upper bound).
  const most = !c ? 0 : chosen.length === 0 ? c.total : Math.min(c.total, chosen.reduce((n, p) => n + c[p], 0));
  const minutes = Math.max(1, Math.ceil((count * perQuestion) / 60));
  return (
    <section>
      <h1>Create a block</h1>
      <p className="muted">Questions you can reach: those of published quizzes and of what you have been granted. Your finished blocks decide what is unused, incorrect or flagged.</p>
      <form
        className="panel"
        aria-label="Create a block"
        onSubmit={(e) => (e.preventDefault(), make.mutate({ categories, pools: chosen, count, mode, minutes: mode === "timed" ? minutes : undefined }))}
      >
        <Field id="block-categories" label="Categories (none chosen: every category)" hint="Each with its subcategories; Ctrl or Shift chooses several." error={errs.category_ids}>
          <CategoryPicker multiple size={6} value={categories} onChange={setCategories} />
        </Field>
        <fieldset>
          <legend>Which questions (none ticked: all)</legend>
          {counts.isPending || !c ? (
            <Status q={counts} what="the counts" />
          ) : (
            <>
              <p data-testid="block-total">{c.total} questions in reach</p>
              {pools.map(([p, label]) => (
                <label key={p} className="check">
                  <input type="checkbox" checked={chosen.includes(p)} onChange={() => setChosen(chosen.includes(p) ? chosen.filter((x) => x !== p) : [...chosen, p])} />{" "}
                  {label} <span className="muted" data-testid={`pool-${p}`}>({c[p]})</span>
                </label>
              ))}
            </>
          )}
        </fieldset>
        <div className="row">
          <Field id="block-count" label="Number of questions" hint={c ? `Up to ${Math.min(200, most)} match` : undefined} error={errs.count}>
            <input type="number" min={1} max={200} required value={count} onChange={(e) => setCount(Number(e.target.value))} />
          </Field>
          <div className="field">
            <label htmlFor="block-mode">Mode</label>
            <select id="block-mode" value={mode} onChange={(e) => setMode(e.target.value as "timed" | "learning")}>
              <option value="timed">Timed: answers at the end</option>
              <option value="learning">Tutor: the answer after each question</option>
            </select>
          </div>
          {mode === "timed" && (
            <Field id="block-pace" label="Seconds per question" hint={`${minutes} minutes in all`}>
              <input type="number" min={10} max={600} value={perQuestion} onChange={(e) => setPerQuestion(Number(e.target.value))} />
            </Field>
          )}
        </div>
        <Submit m={make} label="Start the block" disabled={!!c && most === 0} />
      </form>
    </section>
  );
}
