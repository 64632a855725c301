import { Loaded, Notice, useLoad } from '../load';
import { checksumWord, count, fitnessWords, formatPostDate, formatWhen } from '../format';
import { href } from '../state';
import { useRunGoing } from './Run';
import type { Fitness } from '../bindings/Fitness';
import type { RecipeCard } from '../bindings/RecipeCard';
import type { RunSummary } from '../bindings/RunSummary';

/** Newest post first (a post known only by its year after the dated ones of
 *  that year), then by title. */
export function libraryOrder(a: RecipeCard, b: RecipeCard): number {
  if (a.post.date !== b.post.date) return a.post.date < b.post.date ? 1 : -1;
  return a.post.title.localeCompare(b.post.title) || a.post.id.localeCompare(b.post.id);
}

/** A post's title without the part after a colon: recipes from one post
 *  share it ("Campfire under Falcon" and "Campfire under Falcon: the
 *  hello-world ceilings"). */
const postOf = (r: RecipeCard) => r.post.title.split(':')[0].trim();

/** The latest stored run of each recipe. */
function latestRuns(runs: RunSummary[]): Map<string, RunSummary> {
  const latest = new Map<string, RunSummary>();
  for (const r of runs) {
    const seen = latest.get(r.recipe);
    if (!seen || r.created_at > seen.created_at) latest.set(r.recipe, r);
  }
  return latest;
}

/** The card's line about this machine: a run going now, else the last one. */
function HereLine({ id, run }: { id: string; run: RunSummary | undefined }) {
  if (useRunGoing(id)) {
    return (
      <p class="last-run going" data-running>
        Running now · <a href={href({ page: 'run', id })}>follow it</a>
      </p>
    );
  }
  return <LastRun run={run} />;
}

function LastRun({ run }: { run: RunSummary | undefined }) {
  if (!run) return <p class="last-run never">Not run on this machine yet.</p>;
  // A validation judges the machine, not claims: its verdict, as the Machine page said it.
  if (run.fitness && run.fitness in fitnessWords) {
    return (
      <p class="last-run">
        Validated here {formatWhen(run.created_at)}: {fitnessWords[run.fitness as Fitness]} ·{' '}
        <a href={href({ page: 'machine' })}>see the machine</a>
      </p>
    );
  }
  const judged = run.reproduced + run.not_reproduced + run.inconclusive + run.no_data + run.not_measured + run.not_comparable;
  // The counts worded as the run's headline and the Results list word them.
  return (
    <p class="last-run">
      Last run here {formatWhen(run.created_at)}
      {run.smoke_run && ' (a smoke run)'}: {judged > 0 ? run.tally : 'nothing judged'} ·{' '}
      <a href={href({ page: 'results', run: run.id })}>see the results</a>
    </p>
  );
}

/** A first-time reader's way in: a recipe every lane of which runs on this
 *  machine (none published only; the most claims among them), one click
 *  from its Run page. */
function StartHere({ recipes }: { recipes: RecipeCard[] }) {
  const whole = recipes.filter((r) => r.lanes.length > 0 && r.runs_here === r.lanes.length && r.claims > 0);
  const first = [...whole].sort((a, b) => b.claims - a.claims)[0];
  if (!first) return null;
  return (
    <p class="start-here" data-start-here>
      New here? <a href={href({ page: 'run', id: first.post.id })}>Run {first.post.title}</a>: every lane of it runs on this
      machine, and its Run page says which of its {count(first.claims, 'claim')} a run here judges.
    </p>
  );
}

export function LibraryPage() {
  const load = useLoad((b) => b.library(), []);
  // Past runs come separately: the cards do not wait for the history.
  const runs = useLoad((b) => b.history(), []);
  const latest = runs.state === 'ready' ? latestRuns(runs.value) : null;
  return (
    <>
      <h1>Library</h1>
      <p class="lede">
        Published benchmark results, newest post first, each as a recipe: pick one to see what it claims and what this machine can run.
      </p>
      <Loaded load={load} what="the recipes">
        {(library) => {
          const recipes = [...library.recipes].sort(libraryOrder);
          return (
            <>
              {latest && latest.size === 0 && <StartHere recipes={recipes} />}
              {recipes.length === 0 && (
                <Notice>No recipes found. Reprise reads them from the recipes/ folder of its checkout; set REPRISE_ROOT if the app was started elsewhere.</Notice>
              )}
              <ul class="cards" aria-label="Recipes">
                {recipes.map((r) => {
                  const samePost = recipes.filter((o) => o !== r && postOf(o) === postOf(r));
                  // The post's byline once, on its first card; the others point to it.
                  const firstOfPost = recipes.find((o) => postOf(o) === postOf(r)) === r;
                  return (
                    <li class="card" data-recipe={r.post.id}>
                      <h2>
                        <a href={href({ page: 'post', id: r.post.id })}>{r.post.title}</a>
                      </h2>
                      <p class="recipe-id">
                        recipe <code>{r.post.id}</code>
                        {samePost.length > 0 && <> · same post as {samePost.map((o) => o.post.id).join(', ')}</>}
                      </p>
                      {(firstOfPost || r.checksum.status !== 'matches') && (
                        <p class="meta" data-byline>
                          {firstOfPost && <>{r.post.author} · {formatPostDate(r.post.date)}</>}
                          {r.checksum.status !== 'matches' && <span class="badge warn"> checksum {checksumWord(r.checksum)}</span>}
                        </p>
                      )}
                      <p class="summary">{r.post.summary}</p>
                      <p class="chips" aria-label="Measures">
                        {[...new Set(r.units.map((u) => u.name))].map((name) => (
                          <span class="chip">{name}</span>
                        ))}
                      </p>
                      <p class="facts">
                        {count(r.figures, 'figure')} · {count(r.claims, 'claim')} ·{' '}
                        <span class="lanes-here">
                          {r.runnable === 0
                            ? 'published figures only — nothing to run'
                            : `${r.runs_here} of ${count(r.runnable, 'lane')} runnable here`}
                        </span>
                      </p>
                      {latest && <HereLine id={r.post.id} run={latest.get(r.post.id)} />}
                    </li>
                  );
                })}
              </ul>
              {runs.state === 'error' && <Notice>Past runs are not shown: {runs.error.message}</Notice>}
              <p class="sub" data-recipes-dir>
                Recipes from <code>{library.dir}</code>
              </p>
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
          );
        }}
      </Loaded>
    </>
  );
}
