import { ClaimsHere } from '../ClaimsHere';
import type { PreflightVerdict } from '../bindings/PreflightVerdict';
import type { Preflight } from '../bindings/Preflight';
import type { PreflightItem } from '../bindings/PreflightItem';
import type { SetupEnd } from '../bindings/SetupEnd';
import type { SetupPlan } from '../bindings/SetupPlan';
import { useState } from 'preact/hooks';
import { toBackendError, type BackendError } from '../backend';
import { ErrorBox, Loaded, useBackend, useLoad } from '../load';
import { count } from '../format';
import { href } from '../state';

const verdictClass: Record<PreflightVerdict, string> = { matches: 'ok', not_recorded: '', differs: 'warn', blocks: 'bad' };

export function PreflightPage({ id }: { id: string }) {
  const [ask, setAsk] = useState(false);
  // Bumped after a setup, to read the toolchains again (their versions asked).
  const [checks, setChecks] = useState(0);
  const load = useLoad((b) => b.preflight(id, ask), [id, ask, checks], checks > 0);
  return (
    <>
      <p class="crumbs">
        <a href="#/library">Library</a> › <a href={href({ page: 'post', id })}>{id}</a> › preflight
      </p>
      <h1>Preflight</h1>
      <p class="lede">This machine against the post’s, item by item, with what to do where they differ.</p>
      <Loaded load={load} what="the preflight (probing this machine and its toolchains)">
        {(p) => (
          <>
            <div class="summary-bar">
              <p class={`summary-line ${p.blocked_lanes.length > 0 ? 'warn' : 'ok'}`} data-preflight-summary>
                {laneSummary(p)}{' '}
                {p.absolute_comparable
                  ? 'Absolute figures can be compared with the post’s.'
                  : 'Absolute figures will be shown for information only (the machine differs).'}
              </p>
              <a class="button primary" href={href({ page: 'run', id })} data-action="go-run">
                Go to the run
              </a>
            </div>
            <ClaimsHere claims={p.claims} said={fixesOf(p)} />
            <Fixes p={p} />
            {!p.versions_asked && p.version_commands.length > 0 && (
              <div class="notice" data-versions>
                <p>
                  Versions not asked yet: the toolchains were only looked for on this machine. Asking runs the recipe’s own
                  commands:
                </p>
                <ul class="plain">
                  {p.version_commands.map((c) => (
                    <li><code>{c}</code></li>
                  ))}
                </ul>
                <button type="button" class="secondary" onClick={() => setAsk(true)} data-action="ask-versions">
                  Run {p.version_commands.length === 1 ? 'this command' : `these ${p.version_commands.length} commands`} to ask
                </button>
              </div>
            )}
            {(needsSetup(p) || checks > 0) && (
              <SetupPanel
                id={id}
                onInstalled={() => {
                  setAsk(true);
                  setChecks((n) => n + 1);
                }}
              />
            )}
            <ItemTable items={p.items.filter((i) => i.subject === 'toolchain' || i.subject === 'lane')} />
            <details class="hardware" data-hardware>
              <summary>
                This machine against the post’s: {count(p.items.filter(isHardware).length, 'item')},{' '}
                {p.items.filter((i) => isHardware(i) && i.verdict !== 'matches').length} differ
                {p.items.some((i) => isHardware(i) && i.verdict === 'blocks') && ' (some block: open to see which)'}
              </summary>
              <ItemTable items={p.items.filter(isHardware)} />
            </details>
            <h2>Lanes</h2>
            <ul class="plain">
              {p.runnable_lanes.map((l) => (
                <li data-lane={l}><strong>{l}</strong> <span class="badge ok">can run here</span></li>
              ))}
              {p.blocked_lanes.map((l) => (
                <li data-lane={l}><strong>{l}</strong> <span class="badge bad">blocked</span> <span class="sub">see its items above</span></li>
              ))}
              {p.published_only_lanes.map((l) => (
                <li data-lane={l.lane}><strong>{l.lane}</strong> <span class="badge">published only</span><span class="sub">{l.why}</span></li>
              ))}
            </ul>
          </>
        )}
      </Loaded>
    </>
  );
}

function isHardware(i: PreflightItem): boolean {
  return i.subject !== 'toolchain' && i.subject !== 'lane';
}

/** "2 of 3 lanes run here (falcon is blocked)", or that nothing blocks. */
function laneSummary(p: Preflight): string {
  const total = p.runnable_lanes.length + p.blocked_lanes.length;
  if (p.blocked_lanes.length === 0) return `Nothing blocks this run: ${total === 1 ? 'its lane runs' : `all ${total} lanes run`} here.`;
  const blocked = p.blocked_lanes.join(', ');
  return `${p.runnable_lanes.length} of ${count(total, 'lane')} run here (${blocked} ${p.blocked_lanes.length === 1 ? 'is' : 'are'} blocked: the fixes are below).`;
}

/** The fixes of the items that differ or block, each once. */
function fixesOf(p: Preflight): string[] {
  return [...new Set(p.items.filter((i) => i.verdict !== 'matches' && i.fix).map((i) => i.fix as string))];
}

/** Every fix in one block, to copy and run, rather than one per row. */
function Fixes({ p }: { p: Preflight }) {
  const fixes = fixesOf(p);
  const [copied, setCopied] = useState(false);
  if (fixes.length === 0) return null;
  return (
    <div class="notice fixes" data-fixes>
      <p>What to do, in one place:</p>
      <pre>{fixes.join('\n')}</pre>
      <button
        type="button"
        class="secondary"
        data-action="copy-fixes"
        onClick={() => navigator.clipboard?.writeText(fixes.join('\n')).then(() => setCopied(true), () => setCopied(false))}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

function ItemTable({ items }: { items: PreflightItem[] }) {
  if (items.length === 0) return null;
  return (
    <table class="preflight">
      <thead>
        <tr><th scope="col">Item</th><th scope="col">The post</th><th scope="col">Here</th><th scope="col">Verdict</th><th scope="col">Why, and what to do</th></tr>
      </thead>
      <tbody>
        {items.map((i) => (
          <tr data-item={i.name}>
            <th scope="row">{i.name}</th>
            <td>{i.reference ?? '—'}</td>
            <td>{i.here ?? 'unknown'}</td>
            <td><span class={`badge ${verdictClass[i.verdict]}`}>{i.verdict}</span></td>
            <td>
              {i.why}
              {i.fix && i.verdict === 'matches' && <span class="sub fix">Fix: {i.fix}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Whether a toolchain blocks or differs: something setup may provide. */
function needsSetup(p: Preflight): boolean {
  return p.items.some((i) => i.subject === 'toolchain' && (i.verdict === 'blocks' || i.verdict === 'differs'));
}

type SetupState =
  | { stage: 'idle' }
  | { stage: 'planning' }
  | { stage: 'planned'; plan: SetupPlan }
  | { stage: 'installing'; plan: SetupPlan; lines: string[] }
  | { stage: 'ended'; plan: SetupPlan; lines: string[]; end: SetupEnd }
  | { stage: 'error'; error: BackendError };

/** "Set up what's missing": the plan (what mise installs, the config it
 * writes, the commands it runs), then the install with mise's output live,
 * then the preflight read again. */
function SetupPanel({ id, onInstalled }: { id: string; onInstalled: () => void }) {
  const backend = useBackend();
  const [state, setState] = useState<SetupState>({ stage: 'idle' });
  const plan = () => {
    setState({ stage: 'planning' });
    backend.setupPlan(id, []).then(
      (plan) => setState({ stage: 'planned', plan }),
      (e) => setState({ stage: 'error', error: toBackendError(e) }),
    );
  };
  const install = (plan: SetupPlan) => {
    let lines: string[] = [];
    setState({ stage: 'installing', plan, lines });
    backend
      .startSetup(id, plan.lanes, (batch) => {
        for (const m of batch) if (m.type === 'log') lines = [...lines, ...m.lines];
        setState({ stage: 'installing', plan, lines });
      })
      .then(
        (end) => {
          setState({ stage: 'ended', plan, lines, end });
          if (end === 'installed') onInstalled();
        },
        (e) => setState({ stage: 'error', error: toBackendError(e) }),
      );
  };
  if (state.stage === 'idle' || state.stage === 'planning') {
    return (
      <div class="notice" data-setup>
        <p>Reprise can install the toolchains this recipe pins, through mise, the way the posts pinned theirs.</p>
        <button type="button" class="secondary" onClick={plan} disabled={state.stage === 'planning'} data-action="setup">
          Set up what’s missing
        </button>
      </div>
    );
  }
  if (state.stage === 'error') return <ErrorBox error={state.error} title="Could not set up the toolchains." />;
  const p = state.plan;
  const lines = state.stage === 'planned' ? [] : state.lines;
  return (
    <div class="notice" data-setup>
      {p.get_mise && <p data-setup-mise>mise is not installed: {p.get_mise}</p>}
      {p.installs.length > 0 && (
        <>
          <p>mise installs:</p>
          <ul class="plain">
            {p.installs.map((i) => (
              <li><code>{i}</code></li>
            ))}
          </ul>
          <p>
            into its own config, <code>{p.config}</code>:
          </p>
          <pre data-setup-config>{p.config_text}</pre>
        </>
      )}
      {p.by_hand.length > 0 && (
        <p>Not through mise (the fixes in the table say how): {p.by_hand.map((t) => <code>{t} </code>)}</p>
      )}
      {p.commands.length > 0 && (
        <>
          <p>
            It runs, in <code>{p.dir}</code>:
          </p>
          <ol class="commands" data-setup-commands>
            {p.commands.map((c) => (
              <li><code>{c}</code></li>
            ))}
          </ol>
          <p>then asks each toolchain its version.</p>
        </>
      )}
      {state.stage === 'planned' && p.commands.length > 0 && (
        <button type="button" class="secondary" onClick={() => install(p)} data-action="install">
          Install
        </button>
      )}
      {state.stage === 'installing' && (
        <button type="button" class="secondary" onClick={() => backend.cancelSetup(id)} data-action="stop-setup">
          Stop
        </button>
      )}
      {lines.length > 0 && (
        <pre class="log" data-setup-log aria-live="polite">
          {lines.join('\n')}
        </pre>
      )}
      {state.stage === 'ended' && (
        <p class={`summary-line ${state.end === 'installed' ? 'ok' : 'bad'}`} data-setup-end>
          {state.end === 'installed'
            ? 'Installed: the toolchains below are read again, as a run will use them.'
            : state.end === 'cancelled'
              ? 'Stopped: setting up again installs what is still missing.'
              : 'The install failed: mise’s output above says why.'}
        </p>
      )}
    </div>
  );
}
