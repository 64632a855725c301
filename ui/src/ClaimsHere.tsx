import type { ClaimsHere as Claims } from './bindings/ClaimsHere';
import { href } from './state';

/** What a run here can judge, before it starts, as the session groups it:
 *  the claims it judges named once, and each reason others are not said
 *  once, with the claims it stops and the command that would fix it (unless
 *  the page lists that fix already: `said`); where it judges none, the
 *  recipes a run here can judge (`elsewhere`). */
export function ClaimsHere({ claims, said = [], elsewhere = [] }: { claims: Claims; said?: string[]; elsewhere?: string[] }) {
  if (claims.total === 0) return null;
  return (
    <section class="claims-here" data-claims-here>
      <h2>What a run here can judge</h2>
      <p class={claims.judged.length === 0 ? 'summary-line warn' : 'summary-line ok'} data-claims-judged>
        {claims.summary.charAt(0).toUpperCase() + claims.summary.slice(1)}.
      </p>
      {claims.not_judged.length > 0 && (
        <ul class="plain">
          {claims.not_judged.map((r) => (
            <li data-not-judged>
              {/* Each id whole, the list wrapping between them: a long list is not one unbreakable line. */}
              <strong>
                {r.claims.map((c, i) => (
                  <>
                    {i > 0 && ', '}
                    <span class="id">{c}</span>
                  </>
                ))}
              </strong>
              : {r.why}.
              {r.fix && !said.includes(r.fix) && (
                <>
                  {' '}
                  Fix: <code data-fix>{r.fix}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {elsewhere.length > 0 && (
        <p data-judged-elsewhere>
          Recipes a run here can judge:{' '}
          {elsewhere.map((id, i) => (
            <>
              {i > 0 && ', '}
              <a class="id" href={href({ page: 'run', id })}>{id}</a>
            </>
          ))}
          .
        </p>
      )}
    </section>
  );
}
