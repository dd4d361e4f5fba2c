// What a chart draws, independent of the library that draws it.

/** A colour of the theme (a custom property of style.css). */
export type Tone = "accent" | "ok" | "bad" | "warn" | "muted";

export type Series = {
  label: string;
  values: (number | null)[];
  tone: Tone;
  kind?: "line" | "points" | "bars";
  dash?: boolean;
};

/** PlotSpec is a chart over one x axis: times (seconds since the epoch)
 * with time set, or positions 0..n-1 named by labels. */
export type PlotSpec = {
  x: number[];
  time?: boolean;
  labels?: string[];
  xLabel?: string;
  series: Series[];
  /** stack bars: each series sits on the ones before it */
  stack?: boolean;
  yMax?: number;
  yLabel?: string;
  yUnit?: string;
  height?: number;
  /** onPick is called with the index of the point nearest a click. */
  onPick?: (i: number) => void;
};
