import { Component, type ReactNode } from "react";

type Props = { children: ReactNode; onRetry: () => void };

/** RouteBoundary keeps a screen's failure to that screen: the rest of the
 * page stays, the error is named, and "Try again" reads the data afresh
 * and draws the screen again. Each route has its own (keyed by path). */
export class RouteBoundary extends Component<Props, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="panel" aria-labelledby="failed-h">
        <h1 id="failed-h">This page could not be shown</h1>
        <p role="alert">{error.message || String(error)}</p>
        <p className="actions">
          <button
            className="primary"
            onClick={() => {
              // A screen whose code failed to load is fetched again with the page.
              if (/dynamically imported module|module script failed/i.test(error.message)) return location.reload();
              this.props.onRetry();
              this.setState({ error: null });
            }}
          >
            Try again
          </button>
          <a className="button" href="/">
            Dashboard
          </a>
        </p>
      </section>
    );
  }
}
