// Loading a page's data: one hook, and the loading and error states every
// page shows the same way.

import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { toBackendError, type Backend, type BackendError } from './backend';

export const BackendContext = createContext<Backend | null>(null);

export function useBackend(): Backend {
  const b = useContext(BackendContext);
  if (!b) throw new Error('no backend');
  return b;
}

export type Load<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; error: BackendError };

/** Loads on mount and when `deps` change; with `keep`, a reload shows the
 * previous value until the new one arrives (no flash of the spinner). */
export function useLoad<T>(load: (b: Backend) => Promise<T>, deps: unknown[], keep = false): Load<T> {
  const backend = useBackend();
  const [state, setState] = useState<Load<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    if (!keep) setState({ state: 'loading' });
    load(backend).then(
      (value) => live && setState({ state: 'ready', value }),
      (e) => live && setState({ state: 'error', error: toBackendError(e) }),
    );
    return () => {
      live = false;
    };
  }, deps);
  return state;
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

export function ErrorBox({ error, title }: { error: BackendError; title: string }) {
  return (
    <div class="error" role="alert">
      <strong>{title}</strong>
      <p class="error-message">{error.message}</p>
      {error.hint && <p class="error-hint">What to do: {error.hint}</p>}
    </div>
  );
}

/** Renders a load: its spinner, its error, or `children(value)`. */
export function Loaded<T>({ load, what, children }: { load: Load<T>; what: string; children: (v: T) => ComponentChildren }) {
  if (load.state === 'loading') return <Loading what={what} />;
  if (load.state === 'error') return <ErrorBox error={load.error} title={`Could not load ${what}.`} />;
  return <>{children(load.value)}</>;
}

export function Notice({ children }: { children: ComponentChildren }) {
  return <p class="notice">{children}</p>;
}
