import { Loaded, Notice, useBackend, useLoad } from '../load';
import { href } from '../state';
import { Machine } from './Post';

export function PreflightPage({ id }: { id: string }) {
  const backend = useBackend();
  const load = useLoad((b) => b.post(id), [id]);
  return (
    <>
      <p class="crumbs">
        <a href="#/library">Library</a> › <a href={href({ page: 'post', id })}>{id}</a> › preflight
      </p>
      <h1>Preflight</h1>
      {!backend.capabilities.probe && (
        <Notice>
          The item-by-item comparison of this machine with the post’s (CPU, clock, boost, governor, memory, toolchain
          versions, with reasons and fixes) comes with the machine probe, which is not in this build. Below is what this
          build can check: which toolchains are on PATH, and so which lanes can run.
        </Notice>
      )}
      <Loaded load={load} what="the recipe">
        {(post) => (
          <>
            <h2>Toolchains</h2>
            <table>
              <thead>
                <tr><th scope="col">Toolchain</th><th scope="col">Post’s version</th><th scope="col">Here</th><th scope="col">How it is found</th></tr>
              </thead>
              <tbody>
                {post.toolchains.map((t) => (
                  <tr data-toolchain={t.name}>
                    <th scope="row">{t.name}</th>
                    <td><code>{t.version}</code></td>
                    <td class={t.on_path ? 'ok' : 'bad'}>{t.on_path ? '✓ on PATH' : '✗ not found'}</td>
                    <td>
                      <code>{t.command.join(' ')}</code>
                      {!t.on_path && <span class="sub">Install {t.command[0]} and put it on PATH, then reopen this page.</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <h2>Lanes</h2>
            <ul class="plain">
              {post.lanes.map((l) => (
                <li data-lane={l.name}>
                  <strong>{l.name}</strong>{' '}
                  {l.runnable_here ? (
                    <span class="badge ok">can run here</span>
                  ) : l.runnable ? (
                    <span class="badge bad">needs a missing toolchain</span>
                  ) : (
                    <span class="badge">published only</span>
                  )}
                  <span class="sub">{l.not_runnable ?? l.why}</span>
                </li>
              ))}
            </ul>
            <h2>The post’s machine</h2>
            {post.machine ? <Machine m={post.machine} /> : <p>The post does not describe its machine.</p>}
          </>
        )}
      </Loaded>
    </>
  );
}
