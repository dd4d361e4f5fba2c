// Site settings as the server describes them: each under its label, with
// what its values do (what 0 or a blank means), edited by its kind within
// its bounds, checked here before it is sent and judged by the server.
import { useState } from "react";
import { useSaveSetting, useSettings, useSettingsSchema, type Setting, type SettingValue } from "../../api/admin";
import { fieldErrors } from "../../lib/edit";
import { settingError } from "../../lib/settings";
import { Field, Status } from "../../ui/ui";

export function Settings() {
  const schema = useSettingsSchema();
  const values = useSettings();
  const [saved, setSaved] = useState<string | null>(null);
  const ready = schema.data && values.data;
  return (
    <section>
      <h1>Settings</h1>
      <p className="muted">Site-wide settings. Each takes effect at once for everyone.</p>
      <Status q={schema} what="the settings" />
      <Status q={values} what="the settings' values" />
      <p role="status">{saved}</p>
      {ready && (
        <ul className="settings plain">
          {schema.data.map((s) => (
            <SettingRow key={s.key} s={s} value={values.data[s.key] ?? null} onSaved={(label) => setSaved(`Saved ${label}.`)} onEdit={() => setSaved(null)} />
          ))}
        </ul>
      )}
    </section>
  );
}

const show = (v: SettingValue) => (typeof v === "string" ? v : JSON.stringify(v));

function SettingRow({ s, value, onSaved, onEdit }: { s: Setting; value: SettingValue; onSaved: (label: string) => void; onEdit: () => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveSetting(() => (setDraft(null), onSaved(s.label)));
  const id = `set-${s.key}`;
  const error = problem ?? fieldErrors(save.error)[s.key] ?? save.error?.message;
  const submit = () => {
    if (draft === null) return;
    const checked = settingError(s, draft);
    setProblem(checked.error);
    if (!checked.error) save.mutate({ key: s.key, value: checked.value as SettingValue });
  };
  return (
    <li className="card setting">
      {/* The check below says why by the field (the browser's own bubble would not). */}
      <form className="row" noValidate aria-label={s.label} onSubmit={(e) => (e.preventDefault(), submit())}>
        {s.kind === "switch" ? (
          <Field id={id} label={s.label} hint={s.help} error={error}>
            <input type="checkbox" checked={value === true} disabled={save.isPending || !!s.locked} onChange={(e) => (onEdit(), save.mutate({ key: s.key, value: e.target.checked }))} />
          </Field>
        ) : (
          <Field id={id} label={s.label} hint={s.locked ? `${s.help} Locked: ${s.locked}` : s.help} error={error}>
            {s.kind === "json" ? (
              <textarea rows={3} readOnly={!!s.locked} value={draft ?? show(value)} onChange={(e) => (onEdit(), setProblem(null), setDraft(e.target.value))} />
            ) : (
              <input
                type={s.kind === "number" ? "number" : "text"}
                inputMode={s.kind === "number" ? "numeric" : undefined}
                min={s.min ?? undefined}
                max={s.max ?? undefined}
                step={s.kind === "number" ? 1 : undefined}
                readOnly={!!s.locked}
                value={draft ?? show(value)}
                onChange={(e) => (onEdit(), setProblem(null), setDraft(e.target.value))}
              />
            )}
          </Field>
        )}
        {s.kind !== "switch" && !s.locked && (
          <button type="submit" disabled={save.isPending || draft === null} aria-label={`Save ${s.label}`}>
            Save
          </button>
        )}
      </form>
    </li>
  );
}
