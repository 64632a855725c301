import { Inline } from '../Inline';
import { useState } from 'preact/hooks';
import { toBackendError, type BackendError } from '../backend';
import type { Machine as MachineType } from '../bindings/Machine';
import type { PostView } from '../bindings/PostView';
import { ErrorBox, Loaded, useBackend, useLoad } from '../load';
import { formatPostDate } from '../format';
import { href } from '../state';

export function PostPage({ id }: { id: string }) {
  const load = useLoad((b) => b.post(id), [id]);
  return (
    <Loaded load={load} what={`the post ${id}`}>
      {(post) => <Post post={post} />}
    </Loaded>
  );
}

/** The post's address where the app can open it (http or https, as
 *  open_link takes); `null` for none or anything else. */
function postLink(url: string | null): string | null {
  return url !== null && /^https?:\/\//i.test(url) ? url : null;
}

function Post({ post: view }: { post: PostView }) {
  const post = view.post;
  const url = postLink(post.url);
  const link = useOpenLink();
  return (
    <article>
      <p class="crumbs">
        <a href="#/library">Library</a> › {post.id}
      </p>
      <h1>{post.title}</h1>
      <p class="meta">
        {post.author} · {formatPostDate(post.date)}
        {post.run && <> · {post.run}</>}
        {!url && (
          <span data-no-post-link>
            {post.url ? ' · the recipe’s link to the post is not a web (http or https) address' : ' · the recipe gives no link to the post'}
          </span>
        )}
      </p>
      <p class="summary">{post.summary}</p>
      <p class="actions">
        <a class="button" href={href({ page: 'preflight', id: post.id })}>Check this machine</a>
        <a class="button secondary" href={href({ page: 'run', id: post.id })}>Run steps</a>
        <a class="button secondary" href={href({ page: 'others', id: post.id })} data-others-link>Everyone’s results</a>
        {url && (
          <a class="button secondary" href={url} title={url} onClick={link.open(url)} data-post-link>
            Read the post ↗
          </a>
        )}
      </p>
      {link.opened && <p role="status" class="sub" data-post-link-opened>Opened {link.opened} in your browser.</p>}
      {link.error && <ErrorBox error={link.error} title="Could not open the post." />}

      <h2>Figures</h2>
      <table class="figures post-figures">
        <thead>
          <tr><th scope="col">Figure</th><th scope="col">Lane</th><th scope="col">Published</th><th scope="col">The post’s sentence</th></tr>
        </thead>
        <tbody>
          {view.figures.map(({ figure: f, published }, i) => {
            // A sentence that gives several figures is quoted once, at the first.
            const quoted = view.figures.slice(0, i).find((o) => o.figure.quote === f.quote);
            return (
            <tr data-figure={f.id}>
              <th scope="row"><code class="id">{f.id}</code>{f.endpoint && <span class="sub">{f.endpoint}</span>}</th>
              <td>{f.lane}{f.condition && <span class="sub">{f.condition}</span>}</td>
              <td>
                <span class="num">{published}</span>
                {f.unknown && <span class="sub note">{f.unknown}</span>}
              </td>
              <td>{quoted ? <span class="sub">the sentence of <code class="id">{quoted.figure.id}</code></span> : <q><Inline text={f.quote} /></q>}</td>
            </tr>
            );
          })}
        </tbody>
      </table>

      <h2>Claims</h2>
      <ul class="claims">
        {view.claims.map(({ claim: c, statement }) => (
          <li data-claim={c.id}>
            <span class="badge">{c.kind}</span> <code class="id" data-statement>{statement}</code>{' '}
            <q><Inline text={c.quote} /></q>
          </li>
        ))}
      </ul>

      <div class="columns">
        <section>
          <h2>Reference machine</h2>
          {view.machine ? <Machine m={view.machine} /> : <p>The post does not describe its machine.</p>}
        </section>
        <section>
          <h2>Toolchains</h2>
          <ul class="plain">
            {view.toolchains.map(({ toolchain: t }) => (
              <li>
                <strong>{t.name}</strong> <code>{t.version}</code>
                {t.why && <span class="sub"><Inline text={t.why} /></span>}
              </li>
            ))}
          </ul>
        </section>
      </div>

      {post.unknowns.length > 0 && (
        <>
          <h2>What the post leaves unknown</h2>
          <ul>{post.unknowns.map((u) => <li>{u}</li>)}</ul>
        </>
      )}
    </article>
  );
}

/** Opens a link in the system's browser (the app's window shows only the
 *  app): whether it opened, or why not. */
export function useOpenLink() {
  const backend = useBackend();
  const [opened, setOpened] = useState<string | null>(null);
  const [error, setError] = useState<BackendError | null>(null);
  const open = (url: string) => (e: Event) => {
    e.preventDefault();
    setError(null);
    backend.openLink(url).then(
      () => setOpened(url),
      (err) => setError(toBackendError(err)),
    );
  };
  return { open, opened, error };
}

export function Machine({ m }: { m: MachineType }) {
  const rows: [string, string | null][] = [
    ['CPU', m.cpu],
    ['Cores / threads', m.cores !== null ? `${m.cores} / ${m.threads ?? '?'}` : null],
    ['SMT', m.smt === null ? null : m.smt ? 'on' : 'off'],
    ['Base clock', m.base_mhz !== null ? `${m.base_mhz} MHz` : null],
    ['Boost', m.boost === null ? null : m.boost ? 'on' : 'off'],
    ['Governor', m.governor],
    ['Memory', m.memory_gb !== null ? `${m.memory_gb} GB` : null],
    ['OS', m.os],
    ['Kernel', m.kernel],
    ['Virtualization', m.virtualization],
  ];
  return (
    <>
      <dl class="pairs">
        {rows.filter(([, v]) => v !== null).map(([k, v]) => (
          <>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </>
        ))}
      </dl>
      <blockquote><Inline text={m.quote} /></blockquote>
    </>
  );
}
