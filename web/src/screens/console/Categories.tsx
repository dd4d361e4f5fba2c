// The question-category tree: add, rename, move and delete categories;
// the server judges a name taken or a cycle and says so.
import { useState } from "react";
import { useCategories, useCreateCategory, useDeleteCategory, useSaveCategory, type CategoryNode } from "../../api/categories";
import { fieldErrors } from "../../lib/edit";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Failed, Field, Status, Submit } from "../../ui/ui";

export function Categories() {
  const res = useCategories();
  const nodes = res.data?.nodes ?? [];
  const [note, setNote] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [parent, setParent] = useState("");
  const [editing, setEditing] = useState<CategoryNode | null>(null);
  const create = useCreateCategory((c) => (setName(""), setNote(`Added ${c.name}.`)));
  const errs = fieldErrors(create.error);
  const open = (n: CategoryNode) => {
    setEditing(n);
    setNote(null);
    create.reset();
    setTimeout(() => document.getElementById("cat-edit-name")?.focus());
  };
  return (
    <section>
      <h1>Question categories</h1>
      <p role="status">{note}</p>
      <h2 id="cat-new-h">Add a category</h2>
      <form aria-labelledby="cat-new-h" onSubmit={(e) => (e.preventDefault(), setNote(null), create.mutate({ name, parent_id: parent ? Number(parent) : null }))}>
        <div className="row">
          <Field id="cat-new-name" label="Name" error={errs.name}>
            <input required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field id="cat-new-parent" label="Under" error={errs.parent_id}>
            <CategoryPicker value={parent} onChange={setParent} none="(top level)" />
          </Field>
        </div>
        <Submit m={create} label="Add category" />
      </form>
      {editing && (
        <CategoryEditor
          key={editing.id}
          node={editing}
          onClose={(msg) => {
            setEditing(null);
            if (msg) setNote(msg);
          }}
        />
      )}
      <h2>The tree</h2>
      <Status q={res} what="the categories" />
      {res.data && nodes.length === 0 && <p>No category yet.</p>}
      {nodes.length > 0 && (
        <ul className="tree" aria-label="Question categories">
          {nodes.map((n) => (
            <li key={n.id} className={`depth-${Math.min(n.depth, 6)}`}>
              <span className="tree-name">{n.name}</span>{" "}
              <span className="muted">
                {n.question_count} here, {n.branch_question_count} in the branch
              </span>{" "}
              <button onClick={() => open(n)} aria-label={`Edit ${n.name}`} aria-pressed={editing?.id === n.id}>
                Edit
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** CategoryEditor renames or moves one category, or deletes it with its
 * questions filed elsewhere; the server judges (a cycle, a name taken). */
function CategoryEditor({ node, onClose }: { node: CategoryNode; onClose: (msg?: string) => void }) {
  const [name, setName] = useState(node.name);
  const [parent, setParent] = useState(node.parent_id == null ? "" : String(node.parent_id));
  const [moveTo, setMoveTo] = useState("");
  const save = useSaveCategory(node.id, (c) => onClose(`Saved ${c.name}.`));
  const remove = useDeleteCategory(node.id, () => onClose(`Deleted ${node.name}.`));
  const errs = fieldErrors(save.error);
  return (
    <section className="panel" aria-labelledby="cat-edit-h">
      <h2 id="cat-edit-h">Edit {node.name}</h2>
      <form aria-label={`Rename or move ${node.name}`} onSubmit={(e) => (e.preventDefault(), save.mutate({ name, parent_id: parent ? Number(parent) : null }))}>
        <div className="row">
          <Field id="cat-edit-name" label="New name" error={errs.name}>
            <input required value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field id="cat-edit-parent" label="Move under" error={errs.parent_id}>
            {/* Every other category is offered: the server refuses a cycle and says so. */}
            <CategoryPicker exclude={node.id} value={parent} onChange={setParent} none="(top level)" />
          </Field>
        </div>
        <Submit m={save} label="Save category" other={{ label: "Cancel", onClick: () => onClose() }} />
      </form>
      <h3 id="cat-del-h">Delete {node.name}</h3>
      <p className="muted">Its subcategories move up a level; its {node.question_count} questions go where you say.</p>
      <form aria-labelledby="cat-del-h" onSubmit={(e) => (e.preventDefault(), confirm(`Delete the category ${node.name}?`) && remove.mutate(moveTo ? Number(moveTo) : null))}>
        <div className="row">
          <Field id="cat-del-move" label="Move its questions to">
            <CategoryPicker exclude={node.id} value={moveTo} onChange={setMoveTo} none="(uncategorised)" />
          </Field>
        </div>
        <p className="actions">
          <button type="submit" className="danger" disabled={remove.isPending}>
            Delete category
          </button>
        </p>
      </form>
      <Failed m={remove} />
    </section>
  );
}
