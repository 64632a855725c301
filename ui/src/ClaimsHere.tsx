import type { ClaimHere } from './bindings/ClaimHere';

/** What a run here can judge, before it starts: the claims it judges named
 *  once, and each reason others are not said once, with the claims it
 *  stops and the command that would fix it. */
export function ClaimsHere({ claims }: { claims: ClaimHere[] }) {
  if (claims.length === 0) return null;
  const judged = claims.filter((c) => c.judged).map((c) => c.claim);
  const reasons: { why: string; fix: string | null; claims: string[] }[] = [];
  for (const c of claims.filter((c) => !c.judged)) {
    const why = c.why ?? 'not judged here';
    const same = reasons.find((r) => r.why === why && r.fix === c.fix);
    if (same) same.claims.push(c.claim);
    else reasons.push({ why, fix: c.fix, claims: [c.claim] });
  }
  const head =
    judged.length === 0
      ? `None of its ${claims.length} claims.`
      : judged.length === claims.length
        ? `All ${claims.length} claims.`
        : `${judged.length} of ${claims.length} claims: ${judged.join(', ')}.`;
  return (
    <section class="claims-here" data-claims-here>
      <h2>What a run here can judge</h2>
      <p class={judged.length === 0 ? 'summary-line warn' : 'summary-line ok'} data-claims-judged>
        {head}
      </p>
      {reasons.length > 0 && (
        <ul class="plain">
          {reasons.map((r) => (
            <li data-not-judged>
              <strong class="id">{r.claims.join(', ')}</strong>: {r.why}.
              {r.fix && (
                <>
                  {' '}
                  Fix: <code data-fix>{r.fix}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
