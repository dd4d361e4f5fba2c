import type { ReactNode } from "react";
import { useCategories } from "../api/categories";

type One = { multiple?: false; value: string; onChange: (v: string) => void };
type Many = { multiple: true; value: number[]; onChange: (v: number[]) => void };

/** CategoryPicker is the one select of question categories: the tree in
 * order, indented by depth, from useCategories. With none, an empty choice
 * comes first ("Uncategorised", "Any category"…); exclude leaves out one
 * category (a category cannot move under itself); count shows how many
 * questions each branch holds. A value the tree does not (yet) hold stays
 * chosen and is named by its id, so a form never silently loses a filing.
 * Other props (a Field's id and error wiring) go to the select. */
export function CategoryPicker(
  props: (One | Many) & { none?: string; exclude?: number; count?: boolean; required?: boolean; disabled?: boolean; size?: number; id?: string },
) {
  const { none, exclude, count, multiple, value, onChange, ...rest } = props;
  const tree = useCategories();
  const nodes = (tree.data?.nodes ?? []).filter((n) => n.id !== exclude);
  const known = (v: string) => v === "" || nodes.some((n) => String(n.id) === v);
  const options: ReactNode[] = nodes.map((n) => (
    <option key={n.id} value={n.id}>
      {"\u00a0\u00a0".repeat(n.depth) + n.name + (count ? ` (${n.branch_question_count})` : "")}
    </option>
  ));
  if (multiple)
    return (
      <select {...rest} multiple value={value.map(String)} onChange={(e) => onChange([...e.target.selectedOptions].map((o) => Number(o.value)))}>
        {options}
      </select>
    );
  return (
    <select {...rest} value={value} onChange={(e) => (onChange as One["onChange"])(e.target.value)}>
      {none != null && <option value="">{none}</option>}
      {!known(value as string) && <option value={value as string}>{tree.isPending ? "Loading…" : `Category ${value}`}</option>}
      {options}
    </select>
  );
}
