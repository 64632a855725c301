import { Inline } from '../Inline';
import type { Fact } from '../bindings/Fact';
import type { MachineRow } from '../bindings/MachineRow';
import type { MeasuredCell } from '../bindings/MeasuredCell';
import type { MeasuredLane } from '../bindings/MeasuredLane';
import type { ResultsView } from '../bindings/ResultsView';
import type { RunSummary } from '../bindings/RunSummary';
import type { VerdictRow } from '../bindings/VerdictRow';
import { Loaded, Notice, useLoad } from '../load';
import { ClaimPicture } from '../ClaimPicture';
import { claimCells, claimNumbers, deviationsToSay } from '../claims';
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

function Report({ r }: { r: ResultsView }) {
  const deviations = deviationsToSay(r.deviations, r.not_measured);
  return (
    <article class="report" data-report={r.run.id}>
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
      {r.machine_rows.length > 0 && <MachineDiffers rows={r.machine_rows} />}
      {deviations.length > 0 && (
        <>
          <h3>How this run differs from the post</h3>
          <ul class="deviations" data-deviations>
            {deviations.map((d) => <li>{d.what}</li>)}
          </ul>
        </>
      )}
      <h3>Verdicts</h3>
      {r.sequential && (
        <p class="sub" data-sequential>
          {r.sequential}
        </p>
      )}
      <Claims r={r} />
      <h3>Figures</h3>
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

/** The machine's differences from the post's, once for the page: the
 *  claims not judged for them point here. */
function MachineDiffers({ rows }: { rows: MachineRow[] }) {
  return (
    <div class="notice" data-machine-differs>
      <p>This machine is not the post’s, so absolute figures are shown for information and not judged.</p>
      <table class="machine-differs">
        <thead>
          <tr><th scope="col">Item</th><th scope="col">Here</th><th scope="col">The post’s</th></tr>
        </thead>
        <tbody>
          {rows.map((row) =>
            row.here === null ? (
              <tr><td colSpan={3}>{row.item}</td></tr>
            ) : (
              <tr data-machine-item={row.item}><th scope="row">{row.item}</th><td>{row.here}</td><td>{row.post}</td></tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A card per claim this machine measured; those it did not, once per
 *  reason with the claims it stops. */
function Claims({ r }: { r: ResultsView }) {
  if (r.verdicts.length === 0) return <p>The recipe makes no claims.</p>;
  const groups = r.not_measured_claims;
  return (
    <>
      {r.verdicts.some((row) => row.verdict.measured) && (
        <p class="sub" data-picture-legend>
          Each claim’s picture: the range it accepts shaded, the published number as a line, the measured median’s {r.confidence} interval as a bar with the median as a dot.
        </p>
      )}
      <ul class="verdicts">
        {r.verdicts.filter((row) => row.verdict.outcome !== 'not_measured').map((row) => <ClaimCard r={r} row={row} />)}
      </ul>
      {groups.length > 0 && (
        <ul class="plain not-measured-claims" data-not-measured-claims>
          {groups.map((g) => (
            <li data-not-measured-reason>
              <span class="badge not_measured">Not measured here</span> {g.why} {g.claims.length === 1 ? 'Claim' : 'Claims'}:{' '}
              {g.claims.map((c, i) => (
                <>
                  {i > 0 && ', '}
                  <strong class="id" data-claim={c}>{c}</strong>
                </>
              ))}
              .
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** One claim: its verdict, its numbers on one axis, one sentence of why,
 *  and, opened, its runs, the lanes' CPU, what differs and the reasoning. */
function ClaimCard({ r, row }: { r: ResultsView; row: VerdictRow }) {
  const v = row.verdict;
  const cells = claimCells(v, r.lanes);
  const cpu = cells.some((c) => c.server_cpu);
  const metric = (c: MeasuredCell) => r.units.find((u) => u.metric === c.key.metric)?.name ?? c.key.metric;
  const { why, reasoning, differs_in } = row.card;
  const picture = `${v.claim}: published ${row.published}${row.band ? `, accepted ${row.band}` : ''}; measured ${row.measured}`;
  return (
    <li class={`verdict claim-card ${v.outcome}`} data-verdict={v.claim}>
      <div class="claim-head">
        <span class={`badge ${v.outcome}`}>{outcomeLabel(v.outcome)}</span> <strong class="id">{v.claim}</strong>{' '}
        <span class="sub">{v.kind}</span>
        {v.decided_after !== null && (
          <span class="sub decided" data-decided>decided after {count(v.decided_after, 'run')}</span>
        )}
      </div>
      <q><Inline text={v.quote} /></q>
      <ClaimPicture numbers={claimNumbers(v)} outcome={v.outcome} label={picture} />
      <p class="why" data-why>{why}</p>
      <details class="claim-view" data-claim-view>
        <summary>Runs and reasoning</summary>
        {cells.length === 0 ? (
          <p>No cell measured its figures.</p>
        ) : (
          <table class="claim-runs" data-claim-runs>
            <thead>
              <tr>
                <th scope="col">Lane</th><th scope="col">Endpoint</th><th scope="col">Metric</th><th scope="col">Runs</th>
                <th scope="col">Median ({r.confidence} interval)</th>
                {cpu && <th scope="col">Server CPU</th>}
              </tr>
            </thead>
            <tbody>
              {cells.map((c) => (
                <tr data-claim-cell={`${c.key.lane}/${c.key.metric}`}>
                  <th scope="row">{c.key.lane}</th>
                  <td>{c.key.endpoint ?? '—'}</td>
                  <td>{metric(c)}</td>
                  <td class="num">{c.runs}</td>
                  <td class="num">{c.measured}</td>
                  {cpu && <td data-claim-cpu>{c.server_cpu ?? '—'}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <dl class="pairs">
          {differs_in.length > 0 && (
            <>
              <dt>Differs from the post in</dt>
              <dd data-claim-deviations>{differs_in.join('; ')} (said above)</dd>
            </>
          )}
          {reasoning && (
            <>
              <dt>Reasoning</dt>
              <dd data-reasoning>{reasoning}</dd>
            </>
          )}
        </dl>
      </details>
    </li>
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
              <li data-lane={l.lane}>
                <strong>{l.lane}</strong>: {r.not_measured_claims.some((g) => g.lane === l.lane) ? 'why is said once, under “Not measured here” in the verdicts' : l.why}
              </li>
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
