import { Loaded, Notice, useLoad } from '../load';
import { checksumWord, formatPostDate } from '../format';
import { href } from '../state';

export function LibraryPage() {
  const load = useLoad((b) => b.library(), []);
  return (
    <>
      <h1>Library</h1>
      <p class="lede">Published benchmark results, each as a recipe: pick one to see what it claims and what this machine can run.</p>
      <Loaded load={load} what="the recipes">
        {(library) => (
          <>
            {library.recipes.length === 0 && (
              <Notice>No recipes found. Reprise reads them from the recipes/ folder of its checkout; set REPRISE_ROOT if the app was started elsewhere.</Notice>
            )}
            <ul class="cards" aria-label="Recipes">
              {library.recipes.map((r) => {
                const runnable = r.lanes.filter((l) => l.here.state !== 'published_only');
                const here = runnable.filter((l) => l.here.state === 'runs');
                return (
                  <li class="card" data-recipe={r.post.id}>
                    <h2>
                      <a href={href({ page: 'post', id: r.post.id })}>{r.post.title}</a>
                    </h2>
                    <p class="meta">
                      {r.post.author} · {formatPostDate(r.post.date)}
                      {r.checksum.status !== 'matches' && <span class="badge warn"> checksum {checksumWord(r.checksum)}</span>}
                    </p>
                    <p class="summary">{r.post.summary}</p>
                    <p class="chips" aria-label="Measures">
                      {r.units.map((u) => (
                        <span class="chip">{u || 'counts'}</span>
                      ))}
                    </p>
                    <p class="facts">
                      {r.figures} figures · {r.claims} claims ·{' '}
                      <span class="lanes-here">
                        {here.length} of {runnable.length} lanes runnable here
                      </span>
                    </p>
                  </li>
                );
              })}
            </ul>
            {library.problems.length > 0 && (
              <section class="error" role="alert">
                <strong>These recipe files did not load:</strong>
                <ul>
                  {library.problems.map((p) => (
                    <li>
                      <code>{p.file}</code>: {p.message}
                    </li>
                  ))}
                </ul>
                <p class="error-hint">What to do: run <code>reprise check {'<file>'}</code> for every problem with its line.</p>
              </section>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
