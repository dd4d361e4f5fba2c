// The admins' view of the event outbox (issue 38): per topic and consumer
// group, the events not handled yet and the oldest one's age, as /metrics
// reports them, read again every 10 s. The history is Prometheus's.
import { Fragment } from "react";
import { useOutbox, type Outbox as OutboxState } from "../../api/admin";
import { Bars } from "../../charts/Bars";
import { Figure } from "../../charts/Figure";
import { plural, Status } from "../../ui/ui";
import { duration, tone } from "./lag";

type Group = NonNullable<OutboxState["groups"]>[number];

/** Outbox is the event outbox's lag now. */
export function Outbox() {
  const q = useOutbox();
  const groups = q.data?.groups ?? [];
  return (
    <section>
      <h1>Event outbox</h1>
      <p className="hint">
        Events one module sends another wait in the outbox until each consumer group has handled them. A group whose oldest event is older than a
        minute is stuck: workers down, too few, or a handler retrying one event (docs/operations.md, Events).
      </p>
      <Status q={q} what="the outbox" />
      {q.data && (
        <>
          {/* Not a live region: it is read again every 10 s, and the age in it changes each time. */}
          <p data-testid="outbox-summary">
            {summary(groups)} Read at {new Date(q.data.read_at).toLocaleTimeString()}.{" "}
            <button type="button" className="link" onClick={() => q.refetch()} disabled={q.isFetching}>
              Read again
            </button>
          </p>
          {q.data.poisoned > 0 && (
            <p className="error" data-testid="outbox-poisoned">
              {plural(q.data.poisoned, "event")} failed every retry and wait in the poison topic (no longer counted as lag).
            </p>
          )}
          <div className="charts">
            <LagChart groups={groups} />
          </div>
        </>
      )}
    </section>
  );
}

function summary(groups: Group[]) {
  const behind = groups.filter((g) => g.undelivered > 0);
  if (behind.length === 0) return `All ${plural(groups.length, "consumer group")} caught up.`;
  const waiting = behind.reduce((n, g) => n + g.undelivered, 0);
  const oldest = behind.reduce((a, g) => (g.oldest_seconds > a.oldest_seconds ? g : a));
  return `${plural(waiting, "event")} waiting in ${plural(behind.length, "group")}; the oldest for ${duration(oldest.oldest_seconds)} (${oldest.group}).`;
}

/** dotted lets a dotted name wrap after its dots ("analytics.<wbr>count_attempt"). */
const dotted = (name: string) =>
  name.split(".").map((part, i, all) => (
    <Fragment key={i}>
      {part}
      {i < all.length - 1 && (
        <>
          .<wbr />
        </>
      )}
    </Fragment>
  ));

/** LagChart is a bar per group, as long as its oldest waiting event is old
 * against the oldest of all, the lagging groups first. */
function LagChart({ groups }: { groups: Group[] }) {
  const most = Math.max(0, ...groups.map((g) => g.oldest_seconds));
  return (
    <Figure
      title="Oldest waiting event per consumer group"
      summary="The longer the bar, the longer that group's oldest event has waited."
      rows={groups}
      rowKey={(g) => `${g.topic} ${g.group}`}
      testid="chart-outbox"
      columns={[
        { header: "Consumer group", cell: (g) => g.group },
        { header: "Topic", cell: (g) => g.topic },
        { header: "Waiting", cell: (g) => g.undelivered },
        { header: "Oldest", cell: (g) => duration(g.oldest_seconds) },
      ]}
    >
      <Bars
        bars={groups.map((g) => ({
          key: `${g.topic} ${g.group}`,
          label: dotted(g.group),
          value: most > 0 ? (g.oldest_seconds / most) * 100 : 0,
          tone: tone(g.oldest_seconds),
          text: g.undelivered > 0 ? `${g.undelivered} waiting, oldest ${duration(g.oldest_seconds)}` : "caught up",
        }))}
      />
    </Figure>
  );
}
