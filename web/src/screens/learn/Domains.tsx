// A blueprint's weighted domains: exams and plans drawn from a blueprint
// share this fieldset.
import { parseIds } from "../../lib/edit";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Field } from "../../ui/ui";

export type Domain = { name: string; weight: string; category: string; ids: string };

export const newDomain = (): Domain => ({ name: "", weight: "1", category: "", ids: "" });

export const domainBody = (d: Domain) => ({
  name: d.name,
  weight: Number(d.weight),
  category_id: d.category ? Number(d.category) : undefined,
  question_ids: d.ids ? parseIds(d.ids) : undefined,
});

/** DomainsFieldset edits the domains; idPrefix keeps two on a page apart. */
export function DomainsFieldset({ domains, onChange, idPrefix }: { domains: Domain[]; onChange: (d: Domain[]) => void; idPrefix: string }) {
  const setDomain = (i: number, d: Partial<Domain>) => onChange(domains.map((x, j) => (j === i ? { ...x, ...d } : x)));
  return (
    <fieldset className="domains">
      <legend>Domains</legend>
      {domains.map((d, i) => (
        <div className="row" key={i}>
          <Field id={`${idPrefix}-domain-${i}`} label={`Domain ${i + 1}`}>
            <input required value={d.name} onChange={(e) => setDomain(i, { name: e.target.value })} />
          </Field>
          <Field id={`${idPrefix}-domain-weight-${i}`} label="Weight">
            <input required type="number" min={0.01} step="any" value={d.weight} onChange={(e) => setDomain(i, { weight: e.target.value })} />
          </Field>
          <Field id={`${idPrefix}-domain-cat-${i}`} label="Draws from">
            <CategoryPicker value={d.category} onChange={(category) => setDomain(i, { category })} none="No topic" />
          </Field>
          <Field id={`${idPrefix}-domain-ids-${i}`} label="Question ids (optional)">
            <input value={d.ids} onChange={(e) => setDomain(i, { ids: e.target.value })} />
          </Field>
          {domains.length > 1 && (
            <button type="button" onClick={() => onChange(domains.filter((_, j) => j !== i))} aria-label={`Remove domain ${i + 1}`}>
              Remove
            </button>
          )}
        </div>
      ))}
      <p>
        <button type="button" onClick={() => onChange([...domains, newDomain()])}>
          Add domain
        </button>
      </p>
    </fieldset>
  );
}
