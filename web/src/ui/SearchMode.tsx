import type { Mode } from "../api/questions";

/** SearchMode picks how the bank matches the search text. */
export function SearchMode({ value, onChange, ...rest }: { value: Mode; onChange: (m: Mode) => void; id?: string }) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.target.value as Mode)}>
      <option value="keyword">Keyword</option>
      <option value="semantic">Semantic (by meaning)</option>
      <option value="hybrid">Hybrid (both)</option>
    </select>
  );
}
