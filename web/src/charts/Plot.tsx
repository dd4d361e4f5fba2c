// Plot draws lines, points and bars with uPlot (docs/decisions/web.md,
// "Charts"). This module is the only one that imports uplot and is loaded
// only where a chart is drawn (Figure's lazy import), so the library never
// reaches the first load. The canvas is hidden from screen readers: every
// figure carries its table.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { PlotSpec } from "./spec";

const day = 86400;

// The theme's colours, read when drawing (custom properties in style.css).
const tone = (el: Element, name: string) => getComputedStyle(el).getPropertyValue(`--${name}`).trim() || "#888";

function options(spec: PlotSpec, el: HTMLElement, width: number): uPlot.Options {
  const fg = tone(el, "fg");
  const grid = tone(el, "line");
  const axis: uPlot.Axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const bars = uPlot.paths.bars!({ size: [0.7, 40], gap: 1 });
  const points = () => null;
  // Stacked bars: each series is drawn as the sum of itself and those
  // below it, topmost first, so the lower ones cover the sums above them.
  const drawn = spec.stack ? [...spec.series].reverse() : spec.series;
  return {
    width,
    height: spec.height ?? 220,
    // The key below and the table say what the legend would.
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    // A day either side when every point falls within two days, so the
    // axis reads in days, not seconds.
    scales: { x: { time: !!spec.time, range: spec.time ? (_u, min, max) => (max - min < 2 * day ? [min - day, max + day] : [min, max]) : undefined }, y: { range: (_u, min, max) => [Math.min(0, min), spec.yMax ?? Math.max(max, 1)] } },
    axes: [
      spec.labels ? { ...axis, values: (_u, ticks) => ticks.map((t) => spec.labels![t] ?? "") } : axis,
      { ...axis, label: spec.yLabel, values: spec.yUnit ? (_u, ticks) => ticks.map((t) => `${t}${spec.yUnit}`) : undefined },
    ],
    series: [
      { label: spec.xLabel ?? "", value: spec.labels ? (_u, v) => (v == null ? "–" : spec.labels![v] ?? "") : undefined },
      ...drawn.map((s): uPlot.Series => {
        const colour = tone(el, s.tone);
        const kind = s.kind ?? "line";
        return {
          label: s.label,
          stroke: colour,
          width: kind === "points" ? 0 : 2,
          dash: s.dash ? [6, 4] : undefined,
          fill: kind === "bars" ? colour : undefined,
          paths: kind === "bars" ? bars : kind === "points" ? points : undefined,
          points: { show: kind === "points" || (kind === "line" && spec.x.length < 60), size: 7, fill: colour, stroke: colour },
          spanGaps: kind === "line",
          value: spec.yUnit ? (_u, v) => (v == null ? "–" : `${Math.round(v * 10) / 10}${spec.yUnit}`) : undefined,
        };
      }),
    ],
  };
}

function data(spec: PlotSpec): uPlot.AlignedData {
  if (!spec.stack) return [spec.x, ...spec.series.map((s) => s.values)];
  const sums: (number | null)[][] = [];
  spec.series.forEach((s, i) => sums.push(s.values.map((v, j) => (v ?? 0) + (i ? sums[i - 1][j] ?? 0 : 0))));
  return [spec.x, ...sums.reverse()];
}

export default function Plot({ spec }: { spec: PlotSpec }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current!;
    let plot: uPlot | null = null;
    const draw = () => {
      plot?.destroy();
      plot = new uPlot(options(spec, el, el.clientWidth || 320), data(spec), el);
    };
    draw();
    // A click picks the point under the cursor (the table behind the
    // chart offers the same by keyboard).
    const pick = () => {
      const i = plot?.cursor.idx;
      if (spec.onPick && i != null) spec.onPick(i);
    };
    el.addEventListener("click", pick);
    // A new width resizes; a new theme redraws in its colours.
    const resize = new ResizeObserver(() => plot && el.clientWidth && plot.setSize({ width: el.clientWidth, height: spec.height ?? 220 }));
    resize.observe(el);
    const dark = matchMedia("(prefers-color-scheme: dark)");
    dark.addEventListener("change", draw);
    return () => {
      el.removeEventListener("click", pick);
      resize.disconnect();
      dark.removeEventListener("change", draw);
      plot?.destroy();
    };
  }, [spec]);
  return <div ref={box} className="plot" aria-hidden="true" data-testid="plot" />;
}
