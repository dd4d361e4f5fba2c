// A learner's folders and collections: make, rename, file, delete, and
// open one to see and remove its questions.
import { useState, type ReactNode } from "react";
import {
  useAddCollection,
  useAddFolder,
  useCollection,
  useCollections,
  useDeleteCollection,
  useDeleteFolder,
  useEditCollection,
  useFolders,
  useRenameFolder,
  useUnfileQuestion,
  type Collection,
  type Folder,
} from "../../api/collections";
import { useQuestion } from "../../api/questions";
import { fieldErrors } from "../../lib/edit";
import { Failed, Field, Status, plural } from "../../ui/ui";

export function Collections() {
  const folders = useFolders();
  const cols = useCollections();
  const [open, setOpen] = useState<number | null>(null);
  const [newFolder, setNewFolder] = useState("");
  const [newCol, setNewCol] = useState({ name: "", folder: "" });
  const addFolder = useAddFolder(() => setNewFolder(""));
  const addCol = useAddCollection(() => setNewCol({ name: "", folder: "" }));
  const folderErrs = fieldErrors(addFolder.error);
  const colErrs = fieldErrors(addCol.error);
  const folderName = (id: number | null) => folders.data?.find((f) => f.id === id)?.name;
  return (
    <section>
      <h1>Collections</h1>
      <p className="muted">Your own sets of questions, filed in folders. Add questions from Browse questions.</p>
      <div className="learn-columns">
        <section aria-labelledby="folders-h">
          <h2 id="folders-h">Folders</h2>
          <form className="row" onSubmit={(e) => (e.preventDefault(), addFolder.mutate(newFolder))}>
            <Field id="new-folder" label="New folder" error={folderErrs.name}>
              <input required value={newFolder} onChange={(e) => setNewFolder(e.target.value)} />
            </Field>
            <button type="submit" disabled={addFolder.isPending}>
              Add folder
            </button>
          </form>
          <Failed m={addFolder} />
          <Status q={folders} what="your folders" />
          {folders.data?.length === 0 && <p>No folder yet.</p>}
          <ul className="plain">
            {(folders.data ?? []).map((f) => (
              <FolderRow key={f.id} folder={f} />
            ))}
          </ul>
        </section>
        <section aria-labelledby="collections-h">
          <h2 id="collections-h">Collections</h2>
          <form className="row" onSubmit={(e) => (e.preventDefault(), addCol.mutate({ name: newCol.name, folder_id: newCol.folder ? Number(newCol.folder) : null }))}>
            <Field id="new-collection" label="New collection" error={colErrs.name}>
              <input required value={newCol.name} onChange={(e) => setNewCol({ ...newCol, name: e.target.value })} />
            </Field>
            <Field id="new-collection-folder" label="In folder" error={colErrs.folder_id}>
              <FolderPick folders={folders.data ?? []} value={newCol.folder} none="None" onChange={(folder) => setNewCol({ ...newCol, folder })} />
            </Field>
            <button type="submit" disabled={addCol.isPending}>
              Add collection
            </button>
          </form>
          <Failed m={addCol} />
          <Status q={cols} what="your collections" />
          {cols.data?.length === 0 && <p>No collection yet.</p>}
          <ul className="plain">
            {(cols.data ?? []).map((c) => (
              <CollectionRow
                key={c.id}
                collection={c}
                folders={folders.data ?? []}
                extra={`${plural(c.questions, "question")}${c.folder_id ? ` · in ${folderName(c.folder_id) ?? "a folder"}` : ""}`}
                open={open === c.id}
                onOpen={() => setOpen(open === c.id ? null : c.id)}
                onGone={() => open === c.id && setOpen(null)}
              />
            ))}
          </ul>
        </section>
      </div>
      {open !== null && <CollectionDetail key={open} id={open} />}
    </section>
  );
}

function FolderPick({ folders, value, none, onChange, ...rest }: { folders: Folder[]; value: string; none: string; onChange: (v: string) => void; id?: string; disabled?: boolean }) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{none}</option>
      {folders.map((f) => (
        <option key={f.id} value={f.id}>
          {f.name}
        </option>
      ))}
    </select>
  );
}

function FolderRow({ folder: f }: { folder: Folder }) {
  const rename = useRenameFolder(f.id, () => undefined);
  const remove = useDeleteFolder(f.id);
  return <Renamable rowId={f.id} kind="folder" name={f.name} extra={plural(f.collections, "collection")} rename={rename} remove={remove} />;
}

function CollectionRow(props: { collection: Collection; folders: Folder[]; extra: string; open: boolean; onOpen: () => void; onGone: () => void }) {
  const c = props.collection;
  const rename = useEditCollection(c.id);
  const move = useEditCollection(c.id);
  const remove = useDeleteCollection(c.id, props.onGone);
  return (
    <Renamable rowId={c.id} kind="collection" name={c.name} extra={props.extra} rename={{ ...rename, mutate: (name, o) => rename.mutate({ name }, o) }} remove={remove}>
      <button aria-expanded={props.open} onClick={props.onOpen} aria-label={`${props.open ? "Close" : "Open"} the collection ${c.name}`}>
        {props.open ? "Close" : "Open"}
      </button>
      <label htmlFor={`file-${c.id}`} className="sr-only">
        Folder of {c.name}
      </label>
      <FolderPick id={`file-${c.id}`} folders={props.folders} value={c.folder_id == null ? "" : String(c.folder_id)} none="No folder" disabled={move.isPending} onChange={(v) => move.mutate({ folder_id: v ? Number(v) : null })} />
      {move.error && (
        <span role="alert" className="error">
          {move.error.message}
        </span>
      )}
    </Renamable>
  );
}

type Write<V> = { mutate: (v: V, o?: { onSuccess?: () => void }) => void; isPending: boolean; error: Error | null; reset: () => void };

/** Renamable is a folder or collection row: its name, renamed in place, and a delete. */
function Renamable(props: { rowId: number; kind: string; name: string; extra: string; rename: Write<string>; remove: Write<void>; children?: ReactNode }) {
  const { kind, name, rename, remove } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const id = `rename-${kind}-${props.rowId}`;
  return (
    <li className="card">
      {draft === null ? (
        <p>
          <strong>{name}</strong> <span className="muted">{props.extra}</span>
        </p>
      ) : (
        <form className="row" onSubmit={(e) => (e.preventDefault(), rename.mutate(draft, { onSuccess: () => setDraft(null) }))}>
          <Field id={id} label={`New name of the ${kind} ${name}`} error={fieldErrors(rename.error).name}>
            <input required autoFocus value={draft} onChange={(e) => setDraft(e.target.value)} />
          </Field>
          <button type="submit" className="primary" disabled={rename.isPending}>
            Save name
          </button>
          <button type="button" onClick={() => (setDraft(null), rename.reset())}>
            Cancel
          </button>
        </form>
      )}
      <p className="actions">
        {props.children}
        {draft === null && (
          <button onClick={() => setDraft(name)} aria-label={`Rename the ${kind} ${name}`}>
            Rename
          </button>
        )}
        <button disabled={remove.isPending} onClick={() => confirm(`Delete the ${kind} ${name}?`) && remove.mutate()} aria-label={`Delete the ${kind} ${name}`}>
          Delete
        </button>
      </p>
      <Failed m={rename} />
      <Failed m={remove} />
    </li>
  );
}

/** CollectionDetail lists a collection's questions (their stems read one by one) with a remove each. */
function CollectionDetail({ id }: { id: number }) {
  const res = useCollection(id);
  const take = useUnfileQuestion(id);
  if (!res.data) return <Status q={res} what="the collection" />;
  const c = res.data;
  return (
    <section aria-labelledby="collection-h">
      <h2 id="collection-h">{c.name}</h2>
      {c.description && <p>{c.description}</p>}
      <Failed m={take} />
      {!c.question_ids?.length ? (
        <p>No question in it yet.</p>
      ) : (
        <ol className="bank">
          {c.question_ids.map((q) => (
            <li key={q}>
              <Stem id={q} />
              <button disabled={take.isPending} onClick={() => take.mutate(q)} aria-label={`Remove question ${q} from ${c.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Stem({ id }: { id: number }) {
  const q = useQuestion(id);
  return <p>{q.data ? q.data.question_text : q.isError ? `Question ${id} (${q.error.message})` : `Question ${id}`}</p>;
}
