// People: every account with its role, changeable unless the identity
// provider's groups decide roles (the server then answers 409 with why).
import { useMe, type Role } from "../../api/account";
import { usePeople, useSetRole } from "../../api/admin";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Status, when } from "../../ui/ui";

const roles: Role[] = ["user", "moderator", "admin"];

/** People lists every account with its role (changeable unless the identity
 * provider's groups decide roles: the server then answers 409 with why). */
export function People() {
  const me = useMe();
  const res = usePeople();
  const setRole = useSetRole();
  return (
    <section>
      <h1>People</h1>
      <Status q={res} />
      <Failed m={setRole} />
      {res.data && (
        <ActionTable
          label="People"
          rows={res.data}
          rowKey={(u) => u.id}
          columns={[
            { header: "Name", cell: (u) => u.name },
            { header: "Email", cell: (u) => u.email },
            {
              header: "Role",
              cell: (u) => (
                <select
                  aria-label={`Role of ${u.name || u.email}`}
                  value={u.role}
                  disabled={setRole.isPending || u.id === me.data?.id}
                  onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as Role })}
                >
                  {roles.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              ),
            },
            { header: "Since", cell: (u) => when(u.created_at) },
          ]}
        />
      )}
    </section>
  );
}
