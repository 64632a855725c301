import { ClaimsHere } from '../ClaimsHere';
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PlanRow } from '../bindings/PlanRow';
import type { RunOutcome } from '../bindings/RunOutcome';
import type { Consent } from '../bindings/Consent';
import type { RunPlan } from '../bindings/RunPlan';
import type { ServerChoice } from '../bindings/ServerChoice';
import { Loaded, Notice, useBackend, useLoad } from '../load';
import { LiveLine } from '../Chart';
import { checksumWord, count, formatDuration, formatNumber, formatValue } from '../format';
import type { StreamMessage } from '../bindings/StreamMessage';
import { applyBatch, emptyLive, fraction, href, type LiveState } from '../state';
import { toBackendError, type BackendError } from '../backend';
import { ErrorBox } from '../load';

export function RunPage({ id }: { id: string }) {
  const backend = useBackend();
  const [version, setVersion] = useState(0);
  // The server host the plan shown was made for: a run starts with it only.
  const [server, setServer] = useState<ServerChoice | null>(null);
  const load = useLoad((b) => b.planRun(id, server), [id, version, JSON.stringify(server)], true);
  return (
    <>
      <p class="crumbs">
        <a href="#/library">Library</a> › <a href={href({ page: 'post', id })}>{id}</a> › run
      </p>
      <h1>Run</h1>
      <Loaded load={load} what="the plan">
        {(plan) => <Runner plan={plan} server={server} onServer={setServer} onEnd={() => setVersion((v) => v + 1)} />}
      </Loaded>
      {server && load.state === 'error' && (
        <p class="actions">
          <button type="button" class="secondary" onClick={() => setServer(null)} data-action="plan-here">
            Plan on this machine again
          </button>
        </p>
      )}
      {backend.capabilities.bench_stream && <StreamCheck />}
    </>
  );
}

/** Live runs outlive the page: leaving and re-entering shows the same run. */
const liveRuns: Record<string, { live: LiveState; phase: Phase; outcome: RunOutcome | null; quick: boolean; clock: Clock; listeners: Set<() => void> }> = {};
type Phase = 'idle' | 'running' | 'cancelling' | 'ended';

/** When the run started and ended, and when the app last said how long it
 *  had left to measure, in ms. */
interface Clock {
  started: number;
  ended: number | null;
  leftAt: number;
}
const newClock = (now: number): Clock => ({ started: now, ended: null, leftAt: now });

/** Notes in `clock` when `batch` said how long the run has left. */
function tick(clock: Clock, batch: StreamMessage[], now: number): void {
  if (batch.some((m) => m.type === 'left')) clock.leftAt = now;
}

/** A clock that ticks every second while `on`. */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [on]);
  return on ? Math.max(now, Date.now()) : now;
}

function useLiveRun(id: string) {
  const entry = (liveRuns[id] ??= { live: emptyLive(), phase: 'idle', outcome: null, quick: false, clock: newClock(0), listeners: new Set() });
  const [, redraw] = useState(0);
  useEffect(() => {
    const l = () => redraw((n) => n + 1);
    entry.listeners.add(l);
    return () => void entry.listeners.delete(l);
  }, [id]);
  const notify = () => entry.listeners.forEach((l) => l());
  return { entry, notify };
}

/** Whether recipe `id` has a run going in this window (running or being
 *  cancelled), redrawn as that changes: the Library says so on its card. */
export function useRunGoing(id: string): boolean {
  const { entry } = useLiveRun(id);
  return entry.phase === 'running' || entry.phase === 'cancelling';
}

function Runner({ plan, server, onServer, onEnd }: { plan: RunPlan; server: ServerChoice | null; onServer: (s: ServerChoice | null) => void; onEnd: () => void }) {
  const backend = useBackend();
  const { entry, notify } = useLiveRun(plan.recipe);
  const [error, setError] = useState<BackendError | null>(null);
  const [quick, setQuick] = useState(false);
  const [conclusive, setConclusive] = useState(false);
  const [sources, setSources] = useState<Record<string, string>>({});
  const reviewed = plan.checksum.status === 'matches';
  const [accepted, setAccepted] = useState(false);
  const start = (fresh: boolean) => {
    setError(null);
    entry.live = emptyLive();
    entry.phase = 'running';
    entry.outcome = null;
    entry.quick = quick;
    entry.clock = newClock(Date.now());
    notify();
    backend
      .startRun(
        plan.recipe,
        { fresh, quick, sources: Object.fromEntries(Object.entries(sources).filter(([, url]) => url.trim() !== '')), allow_modified: !reviewed && accepted, server, until_conclusive: conclusive },
        (batch) => {
          tick(entry.clock, batch, Date.now());
          entry.live = applyBatch(entry.live, batch);
          notify();
        },
      )
      .then(
        (outcome) => {
          entry.outcome = outcome;
          entry.phase = 'ended';
          entry.clock.ended = Date.now();
          notify();
          onEnd();
        },
        (e) => {
          entry.phase = 'idle';
          setError(toBackendError(e));
          notify();
        },
      );
  };
  const cancel = () => {
    entry.phase = 'cancelling';
    notify();
    backend.cancelRun(plan.recipe).catch((e) => setError(toBackendError(e)));
  };
  const { live, phase, outcome } = entry;
  const busy = phase === 'running' || phase === 'cancelling';
  // The step text follows the run going on, else the option as it is set.
  const shownQuick = phase === 'idle' ? quick : entry.quick;
  const blocked = busy || (!reviewed && !accepted);
  // Once a run is stored, reading its results is the next step; after a
  // cancel, going on with it is.
  const cancelled = outcome?.ending === 'cancelled';
  const stored = outcome?.history.outcome === 'stored' && !cancelled ? outcome.history.id : null;
  const resumes = cancelled ? outcome.run : plan.resumes;
  const judgesNothing = plan.claims.total > 0 && plan.claims.judged.length === 0;
  return (
    <>
      <p class="actions" data-plan={plan.recipe}>
        {stored && (
          <a class="button primary" href={href({ page: 'results', run: stored })} data-action="see-results">
            See the results
          </a>
        )}
        <button type="button" class={stored ? 'secondary' : undefined} onClick={() => start(false)} disabled={blocked} data-action="start">
          {resumes ? `Resume run ${resumes}` : 'Start the run'}
          {judgesNothing && ' (it judges no claim here)'}
        </button>
        {resumes && (
          <button type="button" class="secondary" onClick={() => start(true)} disabled={blocked} data-action="fresh">
            Start a new run
          </button>
        )}
        <button type="button" class="secondary" onClick={cancel} disabled={phase !== 'running'} data-action="cancel">
          {phase === 'cancelling' ? 'Cancelling…' : 'Cancel'}
        </button>
        <label class="check">
          <input type="checkbox" checked={quick} disabled={busy} onChange={(e) => setQuick(e.currentTarget.checked)} data-option="quick" /> Quick
          run (short loads and warm-ups: a smoke run, its results say so)
        </label>
        <label class="check">
          <input type="checkbox" checked={conclusive} disabled={busy} onChange={(e) => setConclusive(e.currentTarget.checked)} data-option="until-conclusive" /> Until
          conclusive (after the recipe’s runs, more runs for the claims still undecided, for at most 30 minutes; the intervals widen to pay for the extra looks)
        </label>
      </p>
      {/* What Start changes, right under it: the run going on, then how it ended. */}
      {error && <ErrorBox error={error} title="The run could not start." />}
      {phase !== 'idle' && <RunStatus plan={plan} live={live} clock={entry.clock} quick={entry.quick} busy={busy} />}
      {outcome && <Outcome outcome={outcome} />}
      {!reviewed && (
        <div class="notice" data-unreviewed>
          <p>
            This recipe is {checksumWord(plan.checksum)} against checksums/recipes.sha256: its commands have not been reviewed.{' '}
            {plan.reviewed_diff ? 'What changed since the reviewed version:' : 'No reviewed version of it is in this checkout’s history: read everything it runs below.'}
          </p>
          {plan.reviewed_diff && <pre class="diff" data-reviewed-diff>{plan.reviewed_diff}</pre>}
          <label class="check">
            <input type="checkbox" checked={accepted} disabled={busy} onChange={(e) => setAccepted(e.currentTarget.checked)} data-option="allow-modified" /> I
            have read what this recipe runs and accept running it unreviewed (the results say so)
          </label>
        </div>
      )}
      {plan.lanes.length > 0 && <p class="sub">Lanes: {plan.lanes.join(', ')}</p>}
      <ClaimsHere claims={plan.claims} elsewhere={plan.judged_elsewhere} />
      {plan.deviations.length > 0 && (
        <Notice>
          This run will differ from the post: {plan.deviations.map((d) => d.what).join('; ')}.
        </Notice>
      )}
      <ConsentList consent={plan.consent} />
      {plan.sources.length > 0 && (
        <details class="sources">
          <summary>Sources (fetch one from a mirror, a fork or a copy on this machine)</summary>
          <ul class="plain">
            {plan.sources.map((src) => (
              <li data-source={src.id}>
                <strong>{src.id}</strong> <code>{src.url}</code> at <code>{src.revision}</code>
                <label class="field">
                  Fetch from{' '}
                  <input
                    type="text"
                    value={sources[src.id] ?? ''}
                    placeholder="the recipe's URL"
                    disabled={busy}
                    aria-label={`Fetch ${src.id} from`}
                    onInput={(e) => setSources({ ...sources, [src.id]: e.currentTarget.value })}
                  />
                </label>
              </li>
            ))}
          </ul>
          <p class="sub">The pinned revision is still required and checked; the run records where it came from as a deviation from the post.</p>
        </details>
      )}
      <ServerHostForm plan={plan} server={server} busy={busy} onServer={onServer} />
      <Timeline plan={plan} live={live} quick={shownQuick} />
    </>
  );
}

/** Where the run is: the time so far, the step and cell going on, and
 *  about how long measuring has left (as the app counts it with each batch,
 *  the CLI's count, counted down here between batches); once ended, how
 *  long it took. */
function RunStatus({ plan, live, clock, quick, busy }: { plan: RunPlan; live: LiveState; clock: Clock; quick: boolean; busy: boolean }) {
  const now = useNow(busy);
  const at = clock.ended ?? now;
  const elapsed = formatDuration(Math.round((at - clock.started) / 1000));
  if (!busy) return <p class="run-status sub" data-run-status>Ran for {elapsed}.</p>;
  const index = plan.steps.findIndex((s) => live.status[s.id]?.status === 'running');
  const current = index >= 0 ? plan.steps[index] : null;
  const expected = current ? (quick ? current.expected_quick : current.expected) : null;
  const parts: string[] = [`${elapsed} elapsed`];
  if (current && expected) {
    const step = live.steps[current.id];
    const cell = step?.cell ?? null;
    const total = step?.total ?? expected.cells;
    const done = Math.min(step?.done ?? 0, total);
    if (current.kind === 'load' && cell) {
      parts.push(`${current.id}: ${cell.lane} / ${cell.endpoint}, run ${cell.run} of ${expected.runs}`, `cell ${Math.min(done + 1, total)} of ${total}`);
    } else {
      parts.push(cell ? `${current.id}: ${cell.lane} / ${cell.endpoint}` : `${current.id}: warming up`);
    }
  } else if (current) {
    parts.push(`${current.id} (step ${index + 1} of ${plan.steps.length})`);
  } else {
    parts.push(Object.keys(live.status).length === 0 ? 'starting' : 'between steps');
  }
  const left = live.left;
  if (left) {
    // While a step measures, the time left runs down until the next batch says it again.
    const seconds = left.measuring ? Math.max(0, left.seconds - (now - clock.leftAt) / 1000) : left.seconds;
    const about = formatDuration(Math.round(seconds));
    parts.push(left.measuring ? `about ${about} left to measure` : `then measuring: about ${about}`);
  }
  return (
    <p class="run-status" data-run-status role="status" aria-live="polite">
      {parts.join(' · ')}
    </p>
  );
}

function Outcome({ outcome }: { outcome: RunOutcome }) {
  const { steps, history, ending } = outcome;
  // A cancel is the reader's own: said plainly, not as a failure.
  const tone = ending === 'finished' || ending === 'lanes_missing' ? 'ok' : ending === 'cancelled' ? 'stopped' : 'bad';
  return (
    <div class={`summary-line ${tone}`} data-run-outcome data-ending={ending} role="status">
      <p>
        {outcome.headline}.{' '}
        {ending === 'cancelled' && 'Resume goes on from where it stopped. '}
        {history.outcome === 'stored' && ending !== 'cancelled' && (
          <a href={href({ page: 'results', run: history.id })} data-results-link>See the results and verdicts</a>
        )}
        {history.outcome === 'nothing_to_store' && 'Nothing was measured, so there are no results to judge.'}
        {history.outcome === 'failed' && <>The results could not be stored in the history: {history.reason}</>}
      </p>
      {outcome.skipped_lanes.length > 0 && (
        <ul class="plain skipped-lanes" data-skipped-lanes>
          {outcome.skipped_lanes.map((l) => (
            <li data-skipped-lane={l.lane}>
              Lane <strong>{l.lane}</strong> {steps.lanes_failed.includes(l.lane) ? 'did not boot or stopped' : 'was not measured'}: {l.why}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Two machines: the lanes on another machine's Docker Engine API (TLS with
 *  client certificates), each in an image; the plan is made again for them,
 *  so what the reader accepts is what runs. */
function ServerHostForm({ plan, server, busy, onServer }: { plan: RunPlan; server: ServerChoice | null; busy: boolean; onServer: (s: ServerChoice | null) => void }) {
  const [host, setHost] = useState(server?.host ?? '');
  const [certs, setCerts] = useState(server?.certs ?? '');
  const [images, setImages] = useState<Record<string, string>>(server?.images ?? {});
  const choice: ServerChoice = {
    host: host.trim(),
    certs: certs.trim() === '' ? null : certs.trim(),
    images: Object.fromEntries(Object.entries(images).filter(([, image]) => image.trim() !== '').map(([lane, image]) => [lane, image.trim()])),
  };
  const planned = server !== null && JSON.stringify(choice) === JSON.stringify(server);
  return (
    <details class="sources" data-server-host open={server !== null}>
      <summary>{server ? `Lanes on the server host ${server.host}` : 'Serve the lanes on another machine (its Docker Engine API, with TLS)'}</summary>
      <label class="field">
        Engine{' '}
        <input type="text" value={host} placeholder="tcp://HOST:2376" disabled={busy} aria-label="Server host's engine" onInput={(e) => setHost(e.currentTarget.value)} />
      </label>
      <label class="field">
        Client certificates{' '}
        <input type="text" value={certs} placeholder="DOCKER_CERT_PATH, else ~/.docker" disabled={busy} aria-label="Client certificates folder" onInput={(e) => setCerts(e.currentTarget.value)} />
      </label>
      <ul class="plain">
        {plan.lanes.map((lane) => (
          <li data-server-image={lane}>
            <label class="field">
              Image for <strong>{lane}</strong>{' '}
              <input type="text" value={images[lane] ?? ''} placeholder="the recipe's image" disabled={busy} aria-label={`Image for ${lane}`} onInput={(e) => setImages({ ...images, [lane]: e.currentTarget.value })} />
            </label>
          </li>
        ))}
      </ul>
      <p class="sub">
        Every lane runs there as a container of its image, its folder copied in; the load generator stays here and loads that address only. The plan below is made
        again for these choices, and the run starts with the choices it shows.
      </p>
      <p class="actions">
        <button type="button" class="secondary" disabled={busy || choice.host === '' || planned} onClick={() => onServer(choice)} data-action="plan-server">
          Plan for this server host
        </button>
        {server && (
          <button type="button" class="secondary" disabled={busy} onClick={() => onServer(null)} data-action="plan-here">
            Serve on this machine instead
          </button>
        )}
      </p>
      {server && !planned && <p class="sub" data-server-unplanned>The choices changed since this plan: plan again to run with them; a run now uses {server.host} as planned.</p>}
    </details>
  );
}

/** Everything starting the run accepts: commands, environment, files, requests. */
function ConsentList({ consent }: { consent: Consent }) {
  const env = consent.steps.filter((s) => s.env.length > 0);
  return (
    <details class="consent" data-consent>
      <summary>
        What starting this run executes: {count(consent.steps.length, 'step')}, {count(consent.lanes.length, 'server')},{' '}
        {count(consent.version_commands.length, 'version command')}
      </summary>
      <ul class="plain">
        {consent.withheld.length > 0 && (
          <li data-consent-withheld>
            runs every command without{' '}
            {consent.withheld.map((v, i) => (
              <>
                {i > 0 && ', '}
                <code>{v}</code>
              </>
            ))}{' '}
            (Reprise’s sign-in to GitHub) unless the recipe sets one
          </li>
        )}
        {consent.steps.map((s) => (
          <li data-consent-step={s.id}>
            step <strong>{s.id}</strong> ({s.kind}): <code>{s.does}</code>
          </li>
        ))}
        {env.flatMap((s) => s.env.map((e) => <li>step <strong>{s.id}</strong> sets <code>{e}</code></li>))}
        {consent.server_host && <li data-consent-server-host>{consent.server_host}</li>}
        {consent.lanes.map((l) => (
          <li data-consent-lane={l.name}>
            lane <strong>{l.name}</strong> runs <code>{l.command}</code>
            <EnvList env={l.env} />
          </li>
        ))}
        {consent.services.map((l) => (
          <li data-consent-service={l.name}>
            service <strong>{l.name}</strong> runs <code>{l.command}</code> ({l.lifecycle})
            <EnvList env={l.env} />
          </li>
        ))}
        {consent.version_commands.map((c) => (
          <li>asks a version: <code>{c}</code></li>
        ))}
        {consent.records_machine.length > 0 && (
          <li data-consent-records-machine>
            records the machine in <code>env.json</code>, as the harness's bench-env does:{' '}
            {consent.records_machine.map((c, i) => (
              <>
                {i > 0 && ', '}
                <code>{c}</code>
              </>
            ))}
          </li>
        )}
        {consent.files.map((f) => (
          <li>
            writes <code>files/{f.path}</code> ({count(f.lines, 'line')}{f.script ? ', a script' : ''})
          </li>
        ))}
        {consent.requests.map((r) => (
          <li>requests <code>{r}</code> from its own lanes on {consent.lane_address}</li>
        ))}
      </ul>
    </details>
  );
}

function Timeline({ plan, live, quick }: { plan: RunPlan; live: LiveState; quick: boolean }) {
  return (
    <ol class="timeline" aria-label="Steps">
      {plan.steps.map((s) => (
        <Step s={s} live={live} quick={quick} />
      ))}
    </ol>
  );
}

function Step({ s, live, quick }: { s: PlanRow; live: LiveState; quick: boolean }) {
  const expected = quick ? s.expected_quick : s.expected;
  // The post's reason describes a full run; a quick one says what it does instead.
  const capped = quick && expected !== null && s.expected !== null && expected.summary !== s.expected.summary;
  const now = live.status[s.id];
  const status = now?.status ?? s.last_status ?? 'not started';
  const reason = now ? now.reason : s.last_reason;
  const step = live.steps[s.id];
  const f = step ? fraction(step) : null;
  return (
    <li data-step={s.id} data-status={status} class={`step ${status.replace(/ /g, '-')}`}>
      <span class="dot" aria-hidden="true" />
      <div>
        <strong>{s.id}</strong> <span class="badge">{s.kind}</span> <span class="status">{status}</span>
        {!now && <> <span class={`badge decision ${s.decision}`} title={s.reason ?? undefined}>{s.decision}</span></>}
        {now?.durationMs !== undefined && <> <span class="sub">{formatDuration(now.durationMs / 1000)}</span></>}
        <p data-why>{capped ? `For the full run: ${s.why}` : s.why}</p>
        <code class="block">{s.describe}</code>
        {expected && (
          <p class={`expected${capped ? ' quick' : ''}`} data-expected>
            {capped ? 'This quick run measures ' : 'Measures '}
            {expected.summary}
          </p>
        )}
        {reason && reason !== s.describe && <p class="sub reason">{reason}</p>}
        {!now && s.reason && <p class="sub reason" data-decision-reason>{s.reason}</p>}
        {step && (
          <>
            {step.total !== null && <progress max={1} value={f ?? undefined} aria-label={`${s.id} progress`} />}
            {/* Live figures are the run going on, not results: gone once the step ends. */}
            {step.reqPerS !== null && now?.status === 'running' && (
              <p class="gauges">
                <span data-gauge="rps">{formatValue(step.reqPerS, 'req/s')}</span> · <span data-gauge="p99">p99 {formatValue(step.p99Ms, 'ms')}</span>
              </p>
            )}
            {step.log.length > 0 && (
              <details open={now?.status === 'running' || now?.status === 'failed'}>
                <summary>Log ({count(step.log.length, 'line')}{step.dropped ? `, ${formatNumber(step.dropped)} throttled` : ''})</summary>
                <pre class="log" aria-label={`${s.id} log`}>{step.log.slice(-200).join('\n')}</pre>
              </details>
            )}
          </>
        )}
      </div>
    </li>
  );
}

/** The live view fed by the bench build's synthetic stream (no recipe runs). */
function StreamCheck() {
  const backend = useBackend();
  const [live, setLive] = useState<LiveState>(emptyLive);
  const [phase, setPhase] = useState<'idle' | 'streaming' | 'finished'>('idle');
  const [error, setError] = useState<BackendError | null>(null);
  const millis = useRef(3000);
  const start = (forward: boolean) => {
    setLive(emptyLive());
    setError(null);
    setPhase('streaming');
    backend
      .benchStream(millis.current, forward, (batch) => setLive((s) => applyBatch(s, batch)))
      .then(
        () => setPhase('finished'),
        (e) => {
          setError(toBackendError(e));
          setPhase('idle');
        },
      );
  };
  return (
    <section class="stream" aria-labelledby="stream-title">
      <h2 id="stream-title">Event stream check</h2>
      <p>
        Synthetic progress events for {millis.current / 1000} s, produced as fast as the app can and forwarded through
        the same throttle a run’s events go through. No recipe is run.
      </p>
      <p class="actions">
        <button type="button" onClick={() => start(true)} disabled={phase === 'streaming'} data-action="stream">
          {phase === 'streaming' ? 'Streaming…' : 'Stream events'}
        </button>
        <button type="button" class="secondary" onClick={() => start(false)} disabled={phase === 'streaming'} data-action="produce-only">
          Produce without forwarding (control)
        </button>
      </p>
      {phase === 'finished' && <p class="sub" data-stream-done>stream finished</p>}
      {error && <ErrorBox error={error} title="The stream stopped." />}
      {Object.entries(live.steps).map(([step, s]) => {
        const f = fraction(s);
        return (
          <div class="live" data-live-step={step}>
            <p>
              <strong>{step}</strong> <span class="status">{phase === 'finished' ? 'finished' : 'running'}</span>
            </p>
            <progress max={1} value={f ?? undefined} aria-label={`${step} progress`} />
            <p class="gauges">
              <span data-gauge="rps">{formatValue(s.reqPerS, 'req/s')}</span> ·{' '}
              <span data-gauge="p99">p99 {formatValue(s.p99Ms, 'ms')}</span>
            </p>
            <LiveLine samples={live.reqPerS} label="Live throughput" />
            <pre class="log" aria-label={`${step} log`}>{s.log.slice(-20).join('\n')}</pre>
            {s.dropped > 0 && <p class="sub">{count(s.dropped, 'log line')} not shown (throttled)</p>}
          </div>
        );
      })}
      {live.batches > 0 && (
        <p class="sub" data-stream-summary>
          {count(live.received, 'event')} in {count(live.batches, 'batch', 'batches')}
        </p>
      )}
    </section>
  );
}

/** A server's environment, said once: "with A=1, B=2". */
function EnvList({ env }: { env: string[] }) {
  if (env.length === 0) return null;
  return (
    <>
      {' '}with{' '}
      {env.map((e, i) => (
        <Fragment key={e}>
          {i > 0 && ', '}
          <code>{e}</code>
        </Fragment>
      ))}
    </>
  );
}
