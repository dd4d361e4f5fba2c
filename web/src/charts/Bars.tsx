// Bars is a ranked list of horizontal bars, each a link: a picture a
// keyboard and a screen reader can use as it is (each link says its
// figures). Widths are 5% steps of style.css's classes (no inline style).
import type { ReactNode } from "react";
import { Link } from "../router";
import "./charts.css";
import { width } from "./steps";

export type Bar = { key: string | number; label: ReactNode; value: number; text: ReactNode; href?: string; tone?: "ok" | "bad" | "warn" | "accent" };

export function Bars({ bars, testid }: { bars: Bar[]; testid?: string }) {
  return (
    <ol className="hbars" data-testid={testid}>
      {bars.map((b) => {
        const body = (
          <>
            <span className="hbar-label">{b.label}</span>
            <span className="hbar" aria-hidden="true">
              <span className={`fill tone-${b.tone ?? "accent"} ${width(b.value)}`} />
            </span>
            <span className="hbar-text">{b.text}</span>
          </>
        );
        return <li key={b.key}>{b.href ? <Link href={b.href}>{body}</Link> : <span className="hbar-row">{body}</span>}</li>;
      })}
    </ol>
  );
}
