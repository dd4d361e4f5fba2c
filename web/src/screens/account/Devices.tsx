import { useEndSession, useSessions } from "../../api/account";
import { signOut } from "../../auth";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Status, when } from "../../ui/ui";

export function Devices() {
  const res = useSessions();
  const end = useEndSession();
  return (
    <section>
      <h1>Devices</h1>
      <p>Each device you signed in on. Ending one stops it from renewing its sign-in.</p>
      <Status q={res} what="your devices" />
      <Failed m={end} />
      {res.data && (
        <ActionTable
          label="Devices"
          rows={res.data}
          rowKey={(s) => s.family}
          columns={[
            { header: "Device", cell: (s) => s.device || "unnamed" },
            { header: "Signed in", cell: (s) => when(s.created_at) },
            { header: "Last used", cell: (s) => when(s.last_used_at) },
          ]}
          actions={(s) => (
            <button onClick={() => end.mutate(s.family)} disabled={end.isPending} aria-label={`End ${s.device || "unnamed"} signed in ${when(s.created_at)}`}>
              End
            </button>
          )}
        />
      )}
      <p className="actions">
        <button onClick={() => signOut(true)}>Sign out everywhere</button>
      </p>
    </section>
  );
}
