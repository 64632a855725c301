import { useState } from 'preact/hooks';
import type { SharePreview } from '../bindings/SharePreview';
import type { ShareStatus } from '../bindings/ShareStatus';
import { toBackendError, type BackendError } from '../backend';
import { ErrorBox, Loaded, Notice, useBackend, useLoad } from '../load';
import { SignIn } from '../SignIn';
import { RunList } from './Results';

export function SharePage({ run }: { run?: string }) {
  const runs = useLoad((b) => b.history(), []);
  return (
    <>
      <h1>Share</h1>
      <p class="lede">Post a run to GitHub Discussions. You see exactly what will be posted: host, domain and user names, home paths, e-mail and MAC addresses, IP addresses and credentials in URLs are redacted first.</p>
      <Loaded load={runs} what="the results history">
        {(rows) => (
          <>
            {rows.length === 0 && <Notice>No runs to share yet.</Notice>}
            <RunList rows={rows} selected={run} page="share" />
            {run && <Sharing run={run} />}
          </>
        )}
      </Loaded>
    </>
  );
}

/** Where to post, the preview and the ways to post it, for one run. The
 *  repository chosen reloads the preview: its prefilled link names it. */
function Sharing({ run }: { run: string }) {
  const [version, setVersion] = useState(0);
  const status = useLoad((b) => b.shareStatus(), [version], true);
  const preview = useLoad((b) => b.sharePreview(run), [run, version], true);
  return (
    <Loaded load={status} what="where to post">
      {(s) => (
        <section class="share">
          <RepoField status={s} onChosen={() => setVersion((v) => v + 1)} />
          <Loaded load={preview} what="the preview">
            {(p) => (
              <>
                <Preview p={p} />
                <h2>Post it</h2>
                <Post p={p} status={s} onSignedIn={() => setVersion((v) => v + 1)} />
                <details>
                  <summary>Other ways to post</summary>
                  <p>
                    The CLI posts the same text: <code class="command">reprise share {p.run}</code>
                  </p>
                </details>
              </>
            )}
          </Loaded>
        </section>
      )}
    </Loaded>
  );
}

/** The repository to post in, owner/name, checked by the app and kept for next time. */
function RepoField({ status, onChosen }: { status: ShareStatus; onChosen: () => void }) {
  const backend = useBackend();
  const [text, setText] = useState(status.repo ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BackendError | null>(null);
  const choose = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const s = await backend.shareChooseRepo(text);
      setText(s.repo ?? '');
      onChosen();
    } catch (err) {
      setError(toBackendError(err));
    }
    setBusy(false);
  };
  const changed = text.trim() !== (status.repo ?? '');
  // REPRISE_DISCUSSIONS_REPO decides: a choice here would not count.
  const fromEnvironment = status.repo_from === 'environment';
  return (
    <form class="repo" onSubmit={choose} data-repo-form>
      <label class="field">
        Post in{' '}
        <input
          type="text"
          value={text}
          placeholder="owner/name"
          spellcheck={false}
          aria-label="Repository to post in (owner/name)"
          data-field="repo"
          disabled={fromEnvironment}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </label>{' '}
      <button type="submit" class={changed ? undefined : 'secondary'} disabled={busy || !changed || text.trim() === '' || fromEnvironment} data-action="use-repo">
        Use this repository
      </button>
      <p class="sub">
        {fromEnvironment ? (
          <span data-repo-from>
            Discussions go to <strong data-repo>{status.repo}</strong> (from REPRISE_DISCUSSIONS_REPO), in the category named after the recipe. To choose here,
            start the app without REPRISE_DISCUSSIONS_REPO.
          </span>
        ) : status.repo ? (
          <>
            Discussions go to <strong data-repo>{status.repo}</strong>, in the category named after the recipe; the choice is kept for next time.
          </>
        ) : (
          <span data-no-repo>No repository yet: enter the GitHub repository whose Discussions should get the report, as owner/name.</span>
        )}
      </p>
      {error && <ErrorBox error={error} title="Not a repository to post in." />}
    </form>
  );
}

/** The report as it will look, rendered by the app's report exporter in a
 *  sandboxed frame (no scripts), the Markdown as posted folded below; Copy
 *  gives the preview's Markdown, the text Save writes. */
function Preview({ p }: { p: SharePreview }) {
  const backend = useBackend();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<BackendError | null>(null);
  const copy = async () => {
    setError(null);
    try {
      await copyText(p.markdown);
      setDone('Copied the report (Markdown) to the clipboard.');
    } catch (e) {
      setError(toBackendError(e));
    }
  };
  const save = async () => {
    setError(null);
    try {
      setDone(`Saved the report to ${await backend.shareSave(p.run)}`);
    } catch (e) {
      setError(toBackendError(e));
    }
  };
  return (
    <>
      <h2>Preview</h2>
      <p>
        <strong>Title:</strong> <span data-title>{p.title}</span>
      </p>
      <p class="redacted">
        {p.redacted_names.length > 0 ? (
          <>Redacted: {p.redacted_names.map((r) => <code>{r}</code>)} (replaced before anything leaves this machine)</>
        ) : (
          'Nothing to redact: the fingerprint names no host or user.'
        )}
      </p>
      <p class="actions">
        <button type="button" class="secondary" onClick={copy} data-action="copy">
          Copy
        </button>
        <button type="button" class="secondary" onClick={save} data-action="save">
          Save
        </button>
      </p>
      {done && (
        <p class="sub" role="status" data-share-done>
          {done}
        </p>
      )}
      {error && <ErrorBox error={error} title="Not copied or saved." />}
      <iframe class="report-preview" sandbox="" srcdoc={p.html} title="The report as it will read" data-report-preview />
      <details class="markdown">
        <summary>The Markdown as it will be posted</summary>
        <pre class="preview" tabIndex={0} aria-label="Report body">
          {p.body}
        </pre>
      </details>
    </>
  );
}

/** Puts `text` on the clipboard: the Clipboard API, else a selected text area. */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Refused (no permission): the selection way below.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the clipboard refused the text; select the Markdown below and copy it by hand');
}

function Post({ p, status: s, onSignedIn }: { p: SharePreview; status: ShareStatus; onSignedIn: () => void }) {
  const backend = useBackend();
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<BackendError | null>(null);
  const fail = (e: unknown) => {
    setError(toBackendError(e));
    setBusy(false);
  };
  const submit = async () => {
    setError(null);
    setBusy(true);
    try {
      setLink((await backend.shareSubmit(p.run)).url);
      setBusy(false);
    } catch (e) {
      fail(e);
    }
  };
  const openPrefilled = async () => {
    if (!p.prefilled_url) return;
    setError(null);
    try {
      await backend.openLink(p.prefilled_url);
      setOpened(true);
    } catch (e) {
      fail(e);
    }
  };
  // Not signed in, the prefilled discussion is the way to post.
  const prefilledFirst = !s.signed_in;
  return (
    <div class="post" data-share-status={s.signed_in ? 'signed-in' : 'signed-out'}>
      {!s.repo && <Notice>Choose the repository to post in above; the ways to post follow.</Notice>}
      {prefilledFirst && s.repo && (
        <p>
          Post it on GitHub yourself: the discussion opens with the title
          {p.body_in_link ? ' and the report' : ''} filled in{p.body_in_link ? '' : '; the report is too long for a link, so Copy it first and paste it there'}.
        </p>
      )}
      {p.prefilled_url && (
        <p class="actions">
          <button type="button" class={prefilledFirst ? undefined : 'secondary'} onClick={openPrefilled} data-action="open-prefilled">
            Open on GitHub
          </button>
          <input class="url" readOnly value={p.prefilled_url} aria-label="Prefilled discussion link" data-prefilled onFocus={(e) => e.currentTarget.select()} />
        </p>
      )}
      {opened && (
        <p class="sub" role="status" data-opened>
          Opened the prefilled discussion in your browser: check it there and press “Start discussion”.
        </p>
      )}
      <SignIn status={s} onSignedIn={onSignedIn} secondary={p.prefilled_url !== null} />
      {s.signed_in && s.repo && !link && (
        <button type="button" onClick={submit} disabled={busy} data-action="submit">
          {busy ? 'Posting…' : `Post to ${s.repo}`}
        </button>
      )}
      {link && (
        <p class="posted" role="status">
          Posted: <input class="url" readOnly value={link} aria-label="Link to the discussion" data-posted onFocus={(e) => e.currentTarget.select()} />
        </p>
      )}
      {error && <ErrorBox error={error} title="Not posted." />}
    </div>
  );
}
