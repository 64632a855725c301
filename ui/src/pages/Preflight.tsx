import type { PreflightVerdict } from '../bindings/PreflightVerdict';
import { useState } from 'preact/hooks';
import { Loaded, useLoad } from '../load';
import { href } from '../state';

const verdictClass: Record<PreflightVerdict, string> = { matches: 'ok', not_recorded: '', differs: 'warn', blocks: 'bad' };

export function PreflightPage({ id }: { id: string }) {
  const [ask, setAsk] = useState(false);
  const load = useLoad((b) => b.preflight(id, ask), [id, ask]);
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
            <p class={`summary-line ${p.blocked_lanes.length > 0 ? 'bad' : 'ok'}`} data-preflight-summary>
              {p.blocked_lanes.length > 0 ? 'Something blocks this run; see the items marked “blocks”.' : 'Nothing blocks this run.'}{' '}
              {p.absolute_comparable
                ? 'Absolute figures can be compared with the post’s.'
                : 'Absolute figures will be shown for information only (the machine differs); ratios and orderings are still judged.'}
            </p>
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
                <button type="button" onClick={() => setAsk(true)} data-action="ask-versions">
                  Run {p.version_commands.length === 1 ? 'this command' : `these ${p.version_commands.length} commands`} to ask
                </button>
              </div>
            )}
            <table class="preflight">
              <thead>
                <tr><th scope="col">Item</th><th scope="col">The post</th><th scope="col">Here</th><th scope="col">Verdict</th><th scope="col">Why, and what to do</th></tr>
              </thead>
              <tbody>
                {p.items.map((i) => (
                  <tr data-item={i.name}>
                    <th scope="row">{i.name}</th>
                    <td>{i.reference ?? '—'}</td>
                    <td>{i.here ?? 'unknown'}</td>
                    <td><span class={`badge ${verdictClass[i.verdict]}`}>{i.verdict}</span></td>
                    <td>
                      {i.why}
                      {i.fix && <span class="sub fix">Fix: {i.fix}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
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
            <p class="actions">
              <a class="button" href={href({ page: 'run', id })}>Go to the run</a>
            </p>
          </>
        )}
      </Loaded>
    </>
  );
}
