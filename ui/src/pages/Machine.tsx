import { useEffect, useState } from 'preact/hooks';
import { ErrorBox, Loaded, useBackend, useLoad } from '../load';
import { toBackendError, type Backend, type BackendError } from '../backend';
import { count, fitnessWords } from '../format';
import { href } from '../state';
import type { Check } from '../bindings/Check';
import type { Validation } from '../bindings/Validation';

type Mode = 'quick' | 'full';

type ValidationState =
  | { state: 'idle' }
  | { state: 'running'; mode: Mode; lines: string[] }
  | { state: 'done'; validation: Validation }
  | { state: 'error'; mode: Mode; error: BackendError };

// The validation outlives the page: leaving and coming back shows it still
// running, or its verdict.
let current: ValidationState = { state: 'idle' };
const listeners = new Set<(s: ValidationState) => void>();
function setValidation(next: ValidationState) {
  current = next;
  listeners.forEach((l) => l(next));
}

function startValidation(backend: Backend, mode: Mode) {
  if (current.state === 'running') return;
  setValidation({ state: 'running', mode, lines: [] });
  backend
    .validateMachine(mode === 'quick', (line) => {
      if (current.state === 'running') setValidation({ ...current, lines: [...current.lines, line] });
    })
    .then(
      (validation) => setValidation({ state: 'done', validation }),
      (e) => setValidation({ state: 'error', mode, error: toBackendError(e) }),
    );
}

function useValidation(): ValidationState {
  const [state, setState] = useState(current);
  useEffect(() => {
    listeners.add(setState);
    setState(current);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return state;
}


function CheckItem({ check }: { check: Check }) {
  return (
    <li class={`check-item level-${check.level}`} data-check={check.id}>
      <span class={`badge ${check.level === 'ok' ? 'ok' : check.level === 'warn' ? 'warn' : 'bad'}`}>{check.level}</span>{' '}
      <strong>{check.id.replace(/_/g, ' ')}</strong>: {check.found}
      {check.why && <p class="why">Why it matters: {check.why}</p>}
      {check.fix && (
        <p class="fix">
          Fix: <code>{check.fix}</code>
        </p>
      )}
    </li>
  );
}

function Verdict({ v }: { v: Validation }) {
  const problems = v.checks.filter((c) => c.level !== 'ok').sort((a, b) => (a.level === b.level ? 0 : a.level === 'fail' ? -1 : 1));
  const ok = v.checks.filter((c) => c.level === 'ok');
  return (
    <div class={`validation ${v.fitness}`} data-fitness={v.fitness}>
      <h3 class="fitness">{fitnessWords[v.fitness]}</h3>
      <p class="ceiling" data-ceiling>
        Loopback ceiling: {v.ceiling} ({v.ceiling_split}).
      </p>
      <p class="meta">
        A {v.mode} validation.{' '}
        {v.history.outcome === 'stored' ? (
          <>
            Saved in the history as <a href={href({ page: 'results', run: v.history.id })}>{v.history.id}</a>.
          </>
        ) : v.history.outcome === 'failed' ? (
          <span class="warn">Not saved in the history: {v.history.reason}</span>
        ) : null}
      </p>
      {problems.length > 0 && (
        <>
          <h3>What to look at</h3>
          <ul class="checks" aria-label="Checks that warn or fail">
            {problems.map((c) => (
              <CheckItem check={c} />
            ))}
          </ul>
        </>
      )}
      {ok.length > 0 && (
        <details class="checks-ok">
          <summary>{count(ok.length, 'check')} ok</summary>
          <ul class="checks">
            {ok.map((c) => (
              <CheckItem check={c} />
            ))}
          </ul>
        </details>
      )}
      {/* The terminal's one line, to paste where a machine is compared: not the page's headline. */}
      <p class="sub">
        In one line, as <code>reprise validate</code> prints it: <code class="validation-summary">{v.summary}</code>
      </p>
    </div>
  );
}

function Validate() {
  const backend = useBackend();
  const v = useValidation();
  const running = v.state === 'running';
  return (
    <section class="validate" aria-labelledby="validate-heading">
      <h2 id="validate-heading">Is it fit to benchmark on?</h2>
      <p class="actions">
        <button type="button" data-action="validate" disabled={running} onClick={() => startValidation(backend, 'quick')}>
          Validate this machine
        </button>{' '}
        <button type="button" class="secondary" data-action="validate-full" disabled={running} onClick={() => startValidation(backend, 'full')}>
          Full validation (about a minute)
        </button>
      </p>
      <p class="sub">
        As <code>reprise validate</code>: the machine’s checks, a fixed kernel run on each CPU, and the loopback ceiling of a built-in server. A quick
        validation takes about 15 seconds; close other busy programs first.
      </p>
      {v.state === 'running' && (
        <div class="live" data-validating>
          <p class="loading" role="status" aria-live="polite">
            <span class="spinner" aria-hidden="true" /> Validating ({v.mode === 'quick' ? 'quick, about 15 s' : 'full, about a minute'})…
          </p>
          {v.lines.length > 0 && <pre class="progress-lines">{v.lines.join('\n')}</pre>}
        </div>
      )}
      {v.state === 'error' && <ErrorBox error={v.error} title="Could not validate this machine." />}
      {v.state === 'done' && <Verdict v={v.validation} />}
    </section>
  );
}

export function MachinePage() {
  const load = useLoad((b) => b.machine(), []);
  return (
    <>
      <h1>This machine</h1>
      <p class="lede">Whether this machine is fit to benchmark on, and what the probe reads from it: the fingerprint every run’s report carries.</p>
      <Validate />
      <section aria-labelledby="fingerprint-heading">
        <h2 id="fingerprint-heading">Fingerprint</h2>
        <Loaded load={load} what="the machine">
          {(m) => (
            <>
              <dl class="pairs machine-summary">
                {m.summary.map((f) => (
                  <>
                    <dt>{f.name}</dt>
                    <dd data-summary={f.name}>{f.value}</dd>
                  </>
                ))}
              </dl>
              <details class="raw-facts">
                <summary>Every fact the probe read ({m.facts.length})</summary>
                <dl class="pairs facts-list">
                  {m.facts.map((f) => (
                    <>
                      <dt>{f.name}</dt>
                      <dd data-fact={f.name}>{f.value}</dd>
                    </>
                  ))}
                </dl>
              </details>
              <p class="sub">
                How this machine compares with a post’s is on each recipe’s Preflight page.
              </p>
            </>
          )}
        </Loaded>
      </section>
    </>
  );
}
