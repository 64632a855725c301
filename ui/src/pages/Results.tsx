import type { ResultsView } from '../bindings/ResultsView';
import type { RunSummary } from '../bindings/RunSummary';
import { Loaded, Notice, useLoad } from '../load';
import { PublishedVsMeasured } from '../Chart';
import { describeCell, formatInterval, formatValue, outcomeLabel, runCounts, unitOf } from '../format';
import { href } from '../state';

export function ResultsPage({ run }: { run?: string }) {
  const runs = useLoad((b) => b.history(), []);
  return (
    <>
      <h1>Results</h1>
      <Loaded load={runs} what="the results history">
        {(rows) => (
          <>
            {rows.length === 0 && (
              <Notice>
                No runs yet. Runs appear here once measured; the CLI stores a published results directory with{' '}
                <code>reprise verdict {'<recipe> <dir>'}</code>.
              </Notice>
            )}
            <RunList rows={rows} selected={run} page="results" />
            {run && <Run run={run} />}
          </>
        )}
      </Loaded>
    </>
  );
}

export function RunList({ rows, selected, page }: { rows: RunSummary[]; selected?: string; page: 'results' | 'share' }) {
  if (rows.length === 0) return null;
  return (
    <ul class="runs" aria-label="Runs">
      {rows.map((r) => (
        <li data-run={r.id}>
          <a href={href({ page, run: r.id })} aria-current={r.id === selected ? 'true' : undefined}>
            <strong>{r.title}</strong>
            <span class="sub">
              {r.created_at} · {runCounts(r)}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function Run({ run }: { run: string }) {
  const load = useLoad((b) => b.results(run), [run]);
  return (
    <Loaded load={load} what={`run ${run}`}>
      {(r) => <Report r={r} />}
    </Loaded>
  );
}

function Report({ r }: { r: ResultsView }) {
  const unit = (f: ResultsView['figures'][number]) => unitOf(r.units, f.metric);
  const units = [...new Set(r.figures.map(unit))];
  return (
    <article class="report">
      <h2>
        {r.run.title}
        {r.deviations.some((d) => d.kind === 'quick') && <span class="badge warn" data-smoke-run> a smoke run, not a measurement</span>}
      </h2>
      <p class="tally">{r.tally}</p>
      <p class="actions"><a class="button secondary" href={href({ page: 'share', run: r.run.id })}>Share this run</a></p>
      {r.machine.machine === 'differs' && (
        <Notice>
          This machine is not the post’s, so absolute figures are shown for information and not judged:{' '}
          {r.machine.reasons.join('; ')}.
        </Notice>
      )}
      {r.deviations.length > 0 && (
        <>
          <h3>How this run differs from the post</h3>
          <ul class="deviations" data-deviations>
            {r.deviations.map((d) => <li>{d.what}</li>)}
          </ul>
        </>
      )}
      <h3>Verdicts</h3>
      <ul class="verdicts">
        {r.verdicts.map((v) => (
          <li class={`verdict ${v.outcome}`} data-verdict={v.claim}>
            <span class={`badge ${v.outcome}`}>{outcomeLabel(v.outcome)}</span> <strong>{v.claim}</strong>
            {v.deviations.length > 0 && <span class="sub on">on {v.deviations.join('; ')}</span>}
            <q>{v.quote}</q>
            <p>
              Published {formatValue(v.published, v.unit)}
              {v.band && <> (accepted {v.band.map((b) => formatValue(b, v.unit)).join(' – ')})</>}; measured{' '}
              <span class="interval">{formatInterval(v.measured, v.unit)}</span>.
            </p>
            <p class="sub">{v.reason}{v.more_runs !== null && ` — about ${v.more_runs} more runs would settle it.`}</p>
          </li>
        ))}
      </ul>
      <h3>Published against measured</h3>
      {units.map((u) => {
        const fs = r.figures.filter((f) => unit(f) === u);
        return (
          <PublishedVsMeasured
            title={`${u}: published (grey) and measured here (blue)`}
            unit={u}
            labels={fs.map((f) => f.figure)}
            published={fs.map((f) => f.published ?? (f.published_range ? (f.published_range[0] + f.published_range[1]) / 2 : null))}
            measured={fs.map((f) => f.stats?.median ?? null)}
          />
        );
      })}
      <table>
        <thead>
          <tr><th scope="col">Figure</th><th scope="col">Published</th><th scope="col">Measured (median)</th><th scope="col">Cell</th></tr>
        </thead>
        <tbody>
          {r.figures.map((f) => (
            <tr data-result={f.figure}>
              <th scope="row">{f.figure}</th>
              <td class="num">{formatValue(f.published, unit(f))}</td>
              <td class="num">{formatValue(f.stats?.median, unit(f))}</td>
              <td>{describeCell(f.status)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.people.length > 0 && (
        <>
          <h3>People</h3>
          <p class="sub">Each step of simulated people, judged served or not by the recipe’s criterion.</p>
          <table class="people">
            <thead>
              <tr>
                {['Step', 'Lane', 'People', 'Served', 'Navigation p50 / p99', 'Delivery p50 / p99', 'Failures', 'Re-sends', 'Reconnects (HTTP / cable)', 'Generator CPU, timer lag p99'].map((c) => (
                  <th scope="col">{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {r.people.map((p) => (
                <tr data-people-step={`${p.lane}/${p.people}`} class={p.served ? 'served' : 'not-served'}>
                  <td>{p.step}</td>
                  <td>{p.lane}</td>
                  <td>{p.people}</td>
                  <td>{p.verdict}</td>
                  <td>{p.navigation}</td>
                  <td>{p.delivery}</td>
                  <td>{p.failures}</td>
                  <td>{p.resends}</td>
                  <td>{p.reconnects}</td>
                  <td>{p.generator}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <details class="appendix">
        <summary>Environment appendix</summary>
        <h4>Toolchains</h4>
        <ul>{r.environment.toolchains.map((t) => <li>{t.name}: <code>{t.version}</code></li>)}</ul>
        {r.environment.sources.length > 0 && (
          <>
            <h4>Sources</h4>
            <ul>{r.environment.sources.map((s) => <li>{s.id}: <code>{s.url} @ {s.revision}</code></li>)}</ul>
          </>
        )}
        <h4>Commands</h4>
        <pre>{r.commands.join('\n') || '(none recorded)'}</pre>
        <h4>Harness</h4>
        <pre>{JSON.stringify(r.environment.harness, null, 2)}</pre>
        <h4>Fingerprint</h4>
        <pre>{JSON.stringify(r.environment.fingerprint, null, 2)}</pre>
      </details>
    </article>
  );
}
