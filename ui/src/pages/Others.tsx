import { Inline } from '../Inline';
// Everyone's results for a recipe: per claim, every machine that shared a
// run as a dot with its interval against the band the claim accepts, this
// machine's run highlighted, filterable by CPU vendor, model and
// virtualisation; a click opens the machine's discussion in the browser.
// Everything here comes from strangers' posts, read and checked by the
// session: it is shown as text (never as HTML), and a link is the
// session's, made from the discussion's number.

import { useState } from 'preact/hooks';
import type { ClaimAmong } from '../bindings/ClaimAmong';
import type { Community } from '../bindings/Community';
import type { Fetch } from '../bindings/Fetch';
import type { Point } from '../bindings/Point';
import { ErrorBox, Loaded, Notice, useLoad } from '../load';
import { count, formatValue, outcomeLabel } from '../format';
import { href } from '../state';
import { When } from './Results';
import { useOpenLink } from './Post';
import { SignIn } from '../SignIn';

export function OthersPage({ id }: { id: string }) {
  // Each press of “Fetch again” asks GitHub again; the page keeps showing
  // what it has meanwhile.
  const [asked, setAsked] = useState(0);
  const load = useLoad((b) => b.community(id, true), [id, asked], true);
  return (
    <>
      <p class="crumbs">
        <a href="#/library">Library</a> › <a href={href({ page: 'post', id })}>{id}</a> › Everyone’s results
      </p>
      <h1>Everyone’s results</h1>
      <Loaded load={load} what={`everyone’s results for ${id}`}>
        {(c) => <Others c={c} fetchAgain={() => setAsked((n) => n + 1)} />}
      </Loaded>
    </>
  );
}

/** Which machines the plots show. */
interface Filter {
  vendor: string;
  cpu: string;
  virtualisation: 'any' | 'bare' | 'virtual' | 'unknown';
}

const ANY = '';
const UNKNOWN_VENDOR = 'unknown vendor';

function vendorOf(p: Point): string {
  return p.vendor ?? UNKNOWN_VENDOR;
}

function shows(f: Filter, p: Point): boolean {
  if (f.vendor !== ANY && vendorOf(p) !== f.vendor) return false;
  if (f.cpu !== ANY && p.cpu !== f.cpu) return false;
  if (f.virtualisation === 'bare') return p.virtual_machine === false;
  if (f.virtualisation === 'virtual') return p.virtual_machine === true;
  if (f.virtualisation === 'unknown') return p.virtual_machine === null;
  return true;
}

function distinct(values: string[]): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}

function Others({ c, fetchAgain }: { c: Community; fetchAgain: () => void }) {
  const [filter, setFilter] = useState<Filter>({ vendor: ANY, cpu: ANY, virtualisation: 'any' });
  const link = useOpenLink();
  const all = c.claims.flatMap((claim) => claim.points);
  const vendors = distinct(all.map(vendorOf));
  const cpus = distinct(all.filter((p) => filter.vendor === ANY || vendorOf(p) === filter.vendor).map((p) => p.cpu));
  const shown = c.claims.map((claim) => ({ claim, points: claim.points.filter((p) => shows(filter, p)) }));
  const drawn = shown.filter(({ claim, points }) => drawsStrip(claim, points)).map(({ claim }) => claim);
  return (
    <article class="others">
      <p class="meta" data-fetch={c.fetch.fetch}>
        <FetchLine fetch={c.fetch} /> From the Discussions of <strong>{c.repo}</strong>
        {c.fetched_at ? <>, as of <When iso={c.fetched_at} /></> : ', nothing read yet'}.
      </p>
      {c.fetch.fetch === 'not_signed_in' ? (
        <>
          <p data-discussions-link>
            The discussions are public in a browser: <a href={c.discussions_url} onClick={link.open(c.discussions_url)}>read them on GitHub</a>.
            Signed in, this page reads them and counts each result here, claim by claim.
          </p>
          <SignInHere onSignedIn={fetchAgain} />
        </>
      ) : (
        <p class="actions">
          <button type="button" class="secondary" onClick={fetchAgain} data-fetch-again>Fetch again</button>
        </p>
      )}
      {c.cache_unread && <Notice>The cache file {c.cache_unread}: it was not read, and is started again.</Notice>}
      {c.discussions === 0 ? (
        <Notice>No results have been read from {c.repo} yet.</Notice>
      ) : (
        <p data-counted>
          {count(c.counted, 'result')} counted (the newest post per author of this recipe version
          {c.superseded > 0 && <>; {count(c.superseded, 'older or repeated post')} left out</>})
          {c.apart.length > 0 && <>; {count(c.apart.length, 'post')} kept apart, below</>}.
        </p>
      )}
      {link.opened && <p role="status" class="sub" data-link-opened>Opened {link.opened} in your browser.</p>}
      {link.error && <ErrorBox error={link.error} title="Could not open the discussion." />}

      {all.length > 0 && (
        <fieldset class="filters">
          <legend>Show machines</legend>
          <label>
            CPU vendor{' '}
            <select data-filter="vendor" value={filter.vendor} onChange={(e) => setFilter({ ...filter, vendor: e.currentTarget.value, cpu: ANY })}>
              <option value={ANY}>any</option>
              {vendors.map((v) => <option value={v}>{v}</option>)}
            </select>
          </label>
          <label>
            CPU model{' '}
            <select data-filter="cpu" value={filter.cpu} onChange={(e) => setFilter({ ...filter, cpu: e.currentTarget.value })}>
              <option value={ANY}>any</option>
              {cpus.map((m) => <option value={m}>{m}</option>)}
            </select>
          </label>
          <label>
            Virtualisation{' '}
            <select
              data-filter="virtualisation"
              value={filter.virtualisation}
              onChange={(e) => setFilter({ ...filter, virtualisation: e.currentTarget.value as Filter['virtualisation'] })}
            >
              <option value="any">any</option>
              <option value="bare">bare metal</option>
              <option value="virtual">virtual machine</option>
              <option value="unknown">not recorded</option>
            </select>
          </label>
        </fieldset>
      )}

      {drawn.length > 0 && (
        <p class="sub" id="strip-legend" data-strip-legend>
          In each chart a row is a machine, its estimate a dot and its interval a line
          {drawn.some((claim) => claim.band) && '; the shaded band is what the claim accepts'}
          {drawn.some((claim) => claim.published !== null) && ', the line across it the published number'}
          {drawn.some((claim) => claim.this_machine?.measured) && '; this machine’s run is the larger dot'}.
        </p>
      )}
      {shown.map(({ claim, points }) => (
        <Claim key={claim.claim} claim={claim} points={points} open={link.open} />
      ))}

      {c.apart.length > 0 && (
        <>
          <h2>Kept apart</h2>
          <ul class="apart" data-apart>
            {c.apart.map((a) => (
              <li data-apart-post={a.number} data-why={a.why}>
                <a href={a.url} onClick={link.open(a.url)}>#{a.number} {a.title}</a>
                {a.author && <> by {a.author}</>}
                <span class="sub">{a.words}</span>
              </li>
            ))}
          </ul>
        </>
      )}

      <h2>This machine</h2>
      {c.this_machine ? (
        <p data-this-run>
          Run <a href={href({ page: 'results', run: c.this_machine.run })}>{c.this_machine.run}</a>
          {c.this_machine.machine.cpu && <> on {c.this_machine.machine.cpu}</>}
          {c.this_machine.smoke_run && <> (a smoke run, not a measurement)</>}
          {!c.this_machine.reviewed && <> (not of the reviewed recipe’s digest)</>}
          {c.this_machine.shared_as !== null ? <>, shared as #{c.this_machine.shared_as}.</> : <>, not shared yet: <a href={href({ page: 'share', run: c.this_machine.run })}>share it</a>.</>}
        </p>
      ) : (
        <Notice>This machine has no stored run of {c.recipe}: run it from its post, then its results show here among the others.</Notice>
      )}
    </article>
  );
}

/** Sign-in on this page, then the fetch again. */
function SignInHere({ onSignedIn }: { onSignedIn: () => void }) {
  const load = useLoad((b) => b.shareStatus(), []);
  return (
    <Loaded load={load} what="whether this app is signed in to GitHub">
      {(status) => <SignIn status={status} onSignedIn={onSignedIn} />}
    </Loaded>
  );
}

function FetchLine({ fetch }: { fetch: Fetch }) {
  switch (fetch.fetch) {
    case 'fetched':
      return <>Fetched {count(fetch.read, 'new or changed discussion')}{fetch.read_again && ' (read again whole: some were deleted)'}.</>;
    case 'unchanged':
      return <>Nothing changed on GitHub since the last fetch.</>;
    case 'offline':
      return <>Not fetched.</>;
    case 'not_signed_in':
      return <>Not fetched: GitHub’s API answers only signed-in requests, even for public discussions (sign in below). Showing what was read before.</>;
    case 'stopped':
      return <>Not fetched in full: {fetch.reason}.</>;
    case 'failed':
      return <>Not fetched: {fetch.reason}. Showing what was read before.</>;
  }
}

function Claim({ claim, points, open }: { claim: ClaimAmong; points: Point[]; open: (url: string) => (e: Event) => void }) {
  const tally = (a: Point['answer']) => points.filter((p) => p.answer === a).length;
  return (
    <section class="claim-among" data-claim={claim.claim}>
      <h2>
        <span class="badge">{claim.kind}</span> {claim.claim}
      </h2>
      <p class="sub">
        <q><Inline text={claim.quote} /></q>
        {claim.published !== null && <> · published {formatValue(claim.published, claim.unit)}</>}
        {claim.band_reading && <> · accepted {claim.band_reading}</>}
      </p>
      {points.length === 0 && !claim.this_machine ? (
        <p class="sub" data-no-points>No machine’s result{claim.points.length > 0 ? ' among those shown' : ' yet'}.</p>
      ) : (
        <>
          {points.length > 0 && (
            <p data-counts>
              {(
                [
                  ['reproduced', 'reproduced'],
                  ['not_reproduced', 'not reproduced'],
                  ['could_not_say', 'could not say'],
                ] as const
              )
                .filter(([a]) => tally(a) > 0)
                .map(([a, words]) => `${tally(a)} ${words}`)
                .join(' · ')}
            </p>
          )}
          <Strip claim={claim} points={points} open={open} />
        </>
      )}
      {claim.this_machine && <p class="this-machine" data-this-machine-words>This machine: {claim.this_machine.words}</p>}
    </section>
  );
}

const ROW = 18;
const WIDTH = 760;
/** Room for each row's label: the discussion and the CPU. */
const LEFT = 230;
const RIGHT = 8;
const LABEL = 34;

/** A row's label, cut to fit: `#3 AMD EPYC 7763 64-Core Proce…`. */
function label(text: string): string {
  return text.length > LABEL ? `${text.slice(0, LABEL - 1)}…` : text;
}

/** Whether this machine gets a row of its own: it has an interval, and its
 *  post is not among the dots already. */
function ownRowOf(claim: ClaimAmong, points: Point[]): boolean {
  return Boolean(claim.this_machine?.measured) && !points.some((p) => p.this_machine);
}

/** The values a claim's strip spans; none when it has nothing to draw. */
function stripValues(claim: ClaimAmong, points: Point[]): number[] {
  const mine = claim.this_machine?.measured;
  return [
    ...points.flatMap((p) => (p.measured ? [p.measured.low, p.measured.high, p.measured.estimate] : [])),
    ...(claim.band ?? []),
    ...(claim.published !== null ? [claim.published] : []),
    ...(ownRowOf(claim, points) && mine ? [mine.low, mine.high] : []),
  ];
}

/** Whether a claim shows a strip: it has a result here or elsewhere, and
 *  something to draw. */
function drawsStrip(claim: ClaimAmong, points: Point[]): boolean {
  return (points.length > 0 || claim.this_machine !== null) && stripValues(claim, points).length > 0;
}

/** A strip plot: a row per machine, its estimate a dot and its interval a
 *  line, over the band the claim accepts; this machine's run highlighted. */
function Strip({ claim, points, open }: { claim: ClaimAmong; points: Point[]; open: (url: string) => (e: Event) => void }) {
  const measured = points.filter((p) => p.measured !== null);
  const mine = claim.this_machine?.measured ?? null;
  const ownRow = ownRowOf(claim, points);
  const values = stripValues(claim, points);
  const unmeasured = points.length - measured.length;
  if (values.length === 0) {
    return <p class="sub" data-no-intervals>No machine measured it ({count(unmeasured, 'machine')} without an interval).</p>;
  }
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 1;
  lo -= pad;
  hi += pad;
  const x = (v: number) => LEFT + ((v - lo) / (hi - lo)) * (WIDTH - LEFT - RIGHT);
  const rows = measured.length + (ownRow ? 1 : 0);
  const height = rows * ROW + 24;
  return (
    <figure class="strip">
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-describedby="strip-legend"
        aria-label={`${claim.claim}: ${count(measured.length, 'machine')} with an interval${claim.band_reading ? `, accepted ${claim.band_reading}` : ''}`}
      >
        {claim.band && (
          <rect data-band class="band" x={x(claim.band[0])} y={0} width={x(claim.band[1]) - x(claim.band[0])} height={rows * ROW} />
        )}
        {claim.published !== null && <line data-published class="published" x1={x(claim.published)} x2={x(claim.published)} y1={0} y2={rows * ROW} />}
        {measured.map((p, i) => {
          const m = p.measured!;
          const y = i * ROW + ROW / 2;
          return (
            <a href={p.url} onClick={open(p.url)} data-point={p.number} data-answer={p.answer} data-this-machine={p.this_machine ? '' : undefined} class={`dot ${p.answer}${p.this_machine ? ' this' : ''}`}>
              <title>{`#${p.number}${p.author ? ` by ${p.author}` : ''}, ${p.cpu}: ${outcomeLabel(p.outcome).toLowerCase()}, ${p.reading}`}</title>
              <text class="label" x={4} y={y + 4}>{label(`#${p.number} ${p.cpu}`)}</text>
              <line x1={x(m.low)} x2={x(m.high)} y1={y} y2={y} />
              <circle cx={x(m.estimate)} cy={y} r={p.this_machine ? 6 : 4} />
            </a>
          );
        })}
        {ownRow && mine && (
          <g data-this-machine class="dot this">
            <title>{`This machine: ${claim.this_machine!.words}`}</title>
            <text class="label" x={4} y={measured.length * ROW + ROW / 2 + 4}>This machine</text>
            <line x1={x(mine.low)} x2={x(mine.high)} y1={measured.length * ROW + ROW / 2} y2={measured.length * ROW + ROW / 2} />
            <circle cx={x(mine.estimate)} cy={measured.length * ROW + ROW / 2} r={6} />
          </g>
        )}
        <text class="axis" x={LEFT} y={height - 6}>{formatValue(lo, claim.unit)}</text>
        <text class="axis" x={WIDTH - RIGHT} y={height - 6} text-anchor="end">{formatValue(hi, claim.unit)}</text>
      </svg>
      {unmeasured > 0 && <figcaption class="sub">{count(unmeasured, 'machine')} without an interval not drawn.</figcaption>}
    </figure>
  );
}
