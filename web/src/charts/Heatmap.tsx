// Heatmap is a calendar of the last weeks, a square per day shaded by how
// much was done (GitHub's contributions calendar). Plain SVG: fills are
// classes of style.css, so the CSP's no-inline-style rule holds and the
// theme applies.
import { useEffect, useRef } from "react";
import { level } from "./steps";

const cell = 12;
const gap = 2;

export type Day = { day: string; value: number };

export function Heatmap({ days, weeks = 53, today = new Date(), unit }: { days: Day[]; weeks?: number; today?: Date; unit: string }) {
  // Today sits at the right: a narrow screen starts scrolled to it.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current) box.current.scrollLeft = box.current.scrollWidth;
  }, []);
  const counts = new Map(days.map((d) => [d.day, d.value]));
  const most = Math.max(0, ...days.map((d) => d.value));
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  // Columns are weeks starting on Sunday; the last column holds today.
  const first = end - (weeks * 7 - 1 - (6 - new Date(end).getUTCDay())) * 86400000;
  const cells = [];
  for (let t = first, i = 0; t <= end; t += 86400000, i++) {
    const key = new Date(t).toISOString().slice(0, 10);
    const v = counts.get(key) ?? 0;
    cells.push(
      <rect key={key} x={Math.floor(i / 7) * (cell + gap)} y={(i % 7) * (cell + gap)} width={cell} height={cell} rx={2} className={`heat-${level(v, most)}`}>
        <title>{`${key}: ${v} ${unit}`}</title>
      </rect>,
    );
  }
  return (
    <div ref={box} className="scroll heatmap" aria-hidden="true">
      <svg viewBox={`0 0 ${weeks * (cell + gap)} ${7 * (cell + gap)}`} width={weeks * (cell + gap)} height={7 * (cell + gap)} data-testid="heatmap">
        {cells}
      </svg>
    </div>
  );
}
