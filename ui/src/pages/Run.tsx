import { useRef, useState } from 'preact/hooks';
import type { StepView } from '../bindings/StepView';
import { Loaded, Notice, useBackend, useLoad } from '../load';
import { LiveLine } from '../Chart';
import { formatValue } from '../format';
import { applyBatch, emptyLive, fraction, href, type LiveState } from '../state';
import { toBackendError, type BackendError } from '../backend';
import { ErrorBox } from '../load';

export function RunPage({ id }: { id: string }) {
  const backend = useBackend();
  const load = useLoad((b) => b.post(id), [id]);
  return (
    <>
      <p class="crumbs">
        <a href="#/library">Library</a> › <a href={href({ page: 'post', id })}>{id}</a> › run
      </p>
      <h1>Run</h1>
      {!backend.capabilities.engine && (
        <Notice>
          Running a recipe from the app (clone, emit, bundle, warm-up, measured runs, with live logs) comes with the
          engine, which is not in this build. These are the steps it will take, each with the post’s reason.
        </Notice>
      )}
      <Loaded load={load} what="the steps">
        {(post) => <Timeline steps={post.steps} />}
      </Loaded>
      {backend.capabilities.benchStream && <StreamCheck />}
    </>
  );
}

function Timeline({ steps }: { steps: StepView[] }) {
  return (
    <ol class="timeline" aria-label="Steps">
      {steps.map((s) => (
        <li data-step={s.id}>
          <span class="dot" aria-hidden="true" />
          <div>
            <strong>{s.id}</strong> <span class="badge">{s.kind}</span> <span class="status">not started</span>
            <p>{s.why}</p>
            {s.command && <code class="block">{s.command}</code>}
            {s.lanes.length > 0 && <span class="sub">lanes: {s.lanes.join(', ')}</span>}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The live view fed by the bench build's synthetic stream (no recipe runs). */
function StreamCheck() {
  const backend = useBackend();
  const [live, setLive] = useState<LiveState>(emptyLive);
  const [phase, setPhase] = useState<'idle' | 'streaming' | 'finished'>('idle');
  const [error, setError] = useState<BackendError | null>(null);
  const millis = useRef(3000);
  const start = () => {
    setLive(emptyLive());
    setError(null);
    setPhase('streaming');
    backend
      .benchStream(millis.current, (batch) => setLive((s) => applyBatch(s, batch)))
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
      <button type="button" onClick={start} disabled={phase === 'streaming'}>
        {phase === 'streaming' ? 'Streaming…' : 'Stream events'}
      </button>
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
            {s.dropped > 0 && <p class="sub">{s.dropped.toLocaleString('en-US')} log lines not shown (throttled)</p>}
          </div>
        );
      })}
      {live.batches > 0 && (
        <p class="sub" data-stream-summary>
          {live.received.toLocaleString('en-US')} events in {live.batches.toLocaleString('en-US')} batches
        </p>
      )}
    </section>
  );
}
