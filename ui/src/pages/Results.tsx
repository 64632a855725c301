import type { Fact } from '../bindings/Fact';
import type { MeasuredCell } from '../bindings/MeasuredCell';
import type { MeasuredLane } from '../bindings/MeasuredLane';
import type { ResultsView } from '../bindings/ResultsView';
import type { RunSummary } from '../bindings/RunSummary';
import { Loaded, Notice, useLoad } from '../load';
import { ClaimChart, claimCharts } from '../Chart';
import { count, formatAgo, formatWhen, outcomeLabel } from '../format';
import { href } from '../state';

/** How a smoke run (`--quick`) is labelled, as the reports' headline says it. */
const SMOKE_RUN = 'a smoke run, not a measurement';

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

/** A moment as a person reads it, the RFC 3339 original on hover. */
export function When({ iso }: { iso: string }) {
  const ago = formatAgo(iso);
  return (
    <time dateTime={iso} title={iso}>
      {formatWhen(iso)}
      {ago && ` (${ago})`}
    </time>
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
            {r.smoke_run && <span class="badge warn" data-smoke-run>{SMOKE_RUN}</span>}
            {(r.ending === 'cancelled' || r.ending === 'failed') && (
              <span class="badge warn" data-ending={r.ending}>
                {r.ending}
              </span>
            )}
            <span class="sub">
              <When iso={r.created_at} /> · <span data-tally>{r.tally}</span>
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

/** A claims chart's unit as its title says it: `ratios (×)`, `counts`
 *  (a count's unit is empty), `percentages (%)`, `req/s`. */
function chartUnitWords(unit: string): string {
  if (unit === '×') return 'ratios (×)';
  if (unit === '%') return 'percentages (%)';
  return unit === '' ? 'counts' : unit;
}

function Report({ r }: { r: ResultsView }) {
  return (
    <article class="report">
      <h2>
        {r.run.title}
        {r.run.smoke_run && <span class="badge warn" data-smoke-run>{SMOKE_RUN}</span>}
      </h2>
      <p class="meta">
        Measured <When iso={r.info.created_at} />
        {r.info.origin && <> · from {r.info.origin}</>}
      </p>
      <p class="tally" data-tally>{r.tally}</p>
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
      {r.sequential && (
        <p class="sub" data-sequential>
          {r.sequential}
        </p>
      )}
      <ul class="verdicts">
        {r.verdicts.map(({ verdict: v, published, band, measured }) => (
          <li class={`verdict ${v.outcome}`} data-verdict={v.claim}>
            <span class={`badge ${v.outcome}`}>{outcomeLabel(v.outcome)}</span> <strong>{v.claim}</strong>
            {v.decided_after !== null && (
              <span class="sub decided" data-decided>decided after {count(v.decided_after, 'run')}</span>
            )}
            {v.deviations.length > 0 && <span class="sub on">on {v.deviations.join('; ')}</span>}
            <q>{v.quote}</q>
            <p>
              Published {published}
              {band && <> (accepted {band})</>}; measured <span class="interval">{measured}</span>.
            </p>
            <p class="sub">{v.reason}{v.more_runs !== null && ` — about ${count(v.more_runs, 'more run')} would settle it.`}</p>
          </li>
        ))}
      </ul>
      <h3>Published against measured</h3>
      {claimCharts(r.verdicts).map(({ unit, bars }) => (
        <ClaimChart
          unit={unit}
          bars={bars}
          title={`Claims in ${chartUnitWords(unit)}: published (grey), measured here (blue) with its ${r.confidence} interval, the range each claim accepts shaded`}
        />
      ))}
      <table class="figures">
        <thead>
          <tr><th scope="col">Figure</th><th scope="col">Published</th><th scope="col">Measured (median, {r.confidence} interval)</th><th scope="col">Cell</th></tr>
        </thead>
        <tbody>
          {r.figures.map(({ reading: f, published, measured, status }) => (
            <tr data-result={f.figure}>
              <th scope="row">{f.figure}</th>
              <td class="num">{published}</td>
              <td class="num">{measured}</td>
              <td>{status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <MeasuredLanes r={r} />
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
      <EnvironmentAppendix r={r} />
    </article>
  );
}

const LATENCY = ['p50_ms', 'p99_ms'];

/** Every lane the run measured, each endpoint's throughput with its
 *  interval, its latency and what a reader should know before trusting it;
 *  then the lanes it did not measure. */
function MeasuredLanes({ r }: { r: ResultsView }) {
  const rows = r.lanes;
  const cell = (row: MeasuredLane, metric: string) => row.cells.find((c) => c.key.metric === metric);
  const median = (c: MeasuredCell | undefined) => c?.median ?? '—';
  const others = (row: MeasuredLane) => row.cells.filter((c) => c.key.metric !== 'req_per_s' && !LATENCY.includes(c.key.metric));
  const name = (c: MeasuredCell) => r.units.find((u) => u.metric === c.key.metric)?.name ?? c.key.metric;
  const hasOthers = rows.some((row) => others(row).length > 0);
  // What each lane's server got from the machine, where the run read it.
  const hasCpu = rows.some((row) => cell(row, 'req_per_s')?.server_cpu);
  return (
    <>
      <h3>Measured lanes</h3>
      {rows.length === 0 ? (
        <p>This run measured no lane.</p>
      ) : (
        <table class="lanes" data-measured-lanes>
          <thead>
            <tr>
              <th scope="col">Lane</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Throughput (median, {r.confidence} interval)</th>
              <th scope="col">Latency p50 / p99</th>
              {hasCpu && <th scope="col">Server CPU</th>}
              {hasOthers && <th scope="col">Also measured</th>}
              <th scope="col">Runs</th>
              <th scope="col">Flags</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const throughput = cell(row, 'req_per_s');
              const p50 = cell(row, 'p50_ms');
              const p99 = cell(row, 'p99_ms');
              return (
                <tr data-lane={row.lane} data-endpoint={row.endpoint ?? ''} class={row.flags.length > 0 ? 'flagged' : undefined}>
                  <th scope="row">
                    {row.lane}
                    {row.no_figure && <span class="sub" data-no-figure>no published figure reads it</span>}
                  </th>
                  <td>{row.endpoint ?? '—'}</td>
                  <td class="num">{throughput ? throughput.measured : '—'}</td>
                  <td class="num">{p50 || p99 ? `${median(p50)} / ${median(p99)}` : '—'}</td>
                  {hasCpu && <td data-server-cpu>{throughput?.server_cpu ?? '—'}</td>}
                  {hasOthers && (
                    <td>
                      {others(row).map((c) => (
                        <span class="sub">{name(c)}: {median(c)}</span>
                      ))}
                    </td>
                  )}
                  <td class="num">{row.runs}</td>
                  <td>
                    {row.flags.length === 0 ? (
                      <span class="ok">steady</span>
                    ) : (
                      <ul class="flags">{row.flags.map((f) => <li>{f}</li>)}</ul>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {r.not_measured.length > 0 && (
        <>
          <h4>Not measured</h4>
          <ul data-not-measured>
            {r.not_measured.map((l) => (
              <li data-lane={l.lane}><strong>{l.lane}</strong>: {l.why}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** A JSON object of plain values as pairs; `null` for anything nested. */
function flatPairs(value: unknown): Fact[] | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const pairs: Fact[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object') return null;
    pairs.push({ name, value: String(v) });
  }
  return pairs;
}

function Pairs({ pairs, label }: { pairs: Fact[]; label: string }) {
  return (
    <dl class="pairs" aria-label={label}>
      {pairs.map((p) => (
        <>
          <dt>{p.name}</dt>
          <dd data-fact={p.name}>{p.value}</dd>
        </>
      ))}
    </dl>
  );
}

/** The machine, toolchains, sources, harness parameters and commands as a
 *  person reads them; the records as stored, folded away. */
function EnvironmentAppendix({ r }: { r: ResultsView }) {
  const env = r.environment;
  const harness = flatPairs(env.harness);
  return (
    <section class="appendix" data-appendix>
      <h3>Environment</h3>
      <div class="columns">
        <section data-measured-on>
          <h4>Machine</h4>
          {r.measured_on.length > 0 ? <Pairs pairs={r.measured_on} label="The machine the run was measured on" /> : <p>The run records nothing of its machine.</p>}
        </section>
        <section data-toolchains>
          <h4>Toolchains</h4>
          {env.toolchains.length > 0 ? (
            <Pairs pairs={env.toolchains.map((t) => ({ name: t.name, value: t.version }))} label="Toolchains" />
          ) : (
            <p>No toolchain versions were recorded.</p>
          )}
          {harness && harness.length > 0 && (
            <>
              <h4>Harness</h4>
              <Pairs pairs={harness} label="Harness parameters" />
            </>
          )}
        </section>
      </div>
      {env.sources.length > 0 && (
        <>
          <h4>Sources</h4>
          <ul>{env.sources.map((s) => <li>{s.id}: <code>{s.url} @ {s.revision}</code></li>)}</ul>
        </>
      )}
      {r.commands.length > 0 && (
        <>
          <h4>Commands</h4>
          <pre data-commands>{r.commands.join('\n')}</pre>
        </>
      )}
      <details class="raw" data-raw-environment>
        <summary>Raw records (JSON)</summary>
        {!harness && (
          <>
            <h5>Harness</h5>
            <pre>{JSON.stringify(env.harness, null, 2)}</pre>
          </>
        )}
        <h5>Fingerprint</h5>
        <pre>{JSON.stringify(env.fingerprint, null, 2)}</pre>
        {env.bench_env !== null && (
          <>
            <h5>env.json</h5>
            <pre>{JSON.stringify(env.bench_env, null, 2)}</pre>
          </>
        )}
      </details>
    </section>
  );
}
