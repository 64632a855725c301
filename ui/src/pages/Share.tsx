import { useState } from 'preact/hooks';
import type { SignInCode } from '../bindings/SignInCode';
import { toBackendError, type BackendError } from '../backend';
import { ErrorBox, Loaded, Notice, useBackend, useLoad } from '../load';
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
            {run && <Preview run={run} />}
          </>
        )}
      </Loaded>
    </>
  );
}

function Preview({ run }: { run: string }) {
  const load = useLoad((b) => b.sharePreview(run), [run]);
  return (
    <Loaded load={load} what="the preview">
      {(p) => (
        <section class="share">
          <h2>Preview</h2>
          <p>
            <strong>Title:</strong> {p.title}
          </p>
          <p class="redacted">
            {p.redacted_names.length > 0 ? (
              <>Redacted: {p.redacted_names.map((r) => <code>{r}</code>)} (replaced before anything leaves this machine)</>
            ) : (
              'Nothing to redact: the fingerprint names no host or user.'
            )}
          </p>
          <pre class="preview" tabIndex={0} aria-label="Report body">{p.body}</pre>
          <h2>Post it</h2>
          <Post run={run} />
          <details>
            <summary>Other ways to post</summary>
            <p>The CLI posts the same text: <code class="command">reprise share {p.run}</code></p>
            {p.prefilled_url && (
              <p>
                Or open a new discussion with this text filled in:{' '}
                <input class="url" readOnly value={p.prefilled_url} aria-label="Prefilled discussion link" onFocus={(e) => e.currentTarget.select()} />
              </p>
            )}
          </details>
        </section>
      )}
    </Loaded>
  );
}

function Post({ run }: { run: string }) {
  const backend = useBackend();
  const [version, setVersion] = useState(0);
  const status = useLoad((b) => b.shareStatus(), [version], true);
  const [code, setCode] = useState<SignInCode | null>(null);
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<BackendError | null>(null);
  const fail = (e: unknown) => {
    setError(toBackendError(e));
    setBusy(false);
  };
  const signIn = async () => {
    setError(null);
    setBusy(true);
    try {
      setCode(await backend.shareSignIn());
      await backend.shareWaitSignIn();
      setCode(null);
      setBusy(false);
      setVersion((v) => v + 1);
    } catch (e) {
      setCode(null);
      fail(e);
    }
  };
  const submit = async () => {
    setError(null);
    setBusy(true);
    try {
      setLink((await backend.shareSubmit(run)).url);
      setBusy(false);
    } catch (e) {
      fail(e);
    }
  };
  return (
    <Loaded load={status} what="the GitHub sign-in">
      {(s) => (
        <div class="post" data-share-status={s.signed_in ? 'signed-in' : 'signed-out'}>
          {!s.repo && <Notice>No repository to post in: set REPRISE_DISCUSSIONS_REPO=owner/name and restart the app.</Notice>}
          {!s.signed_in && !s.can_sign_in && (
            <Notice>No GitHub OAuth app is configured for signing in: set REPRISE_GITHUB_CLIENT_ID and restart the app, or use one of the other ways below.</Notice>
          )}
          {!s.signed_in && s.can_sign_in && !code && (
            <button type="button" onClick={signIn} disabled={busy} data-action="sign-in">Sign in to GitHub</button>
          )}
          {code && (
            <div class="device-code" role="status">
              <p>Open <code>{code.verification_uri}</code> in your browser and enter this code:</p>
              <p class="code" data-user-code>{code.user_code}</p>
              <p class="sub">Waiting for GitHub… the code expires in {Math.round(code.expires_in / 60)} minutes.</p>
            </div>
          )}
          {s.signed_in && s.repo && !link && (
            <button type="button" onClick={submit} disabled={busy} data-action="submit">
              {busy ? 'Posting…' : `Post to ${s.repo}`}
            </button>
          )}
          {s.signed_in && <p class="sub">Signed in; the token is kept in {s.token_store}.</p>}
          {link && (
            <p class="posted" role="status">
              Posted: <input class="url" readOnly value={link} aria-label="Link to the discussion" data-posted onFocus={(e) => e.currentTarget.select()} />
            </p>
          )}
          {error && <ErrorBox error={error} title="Not posted." />}
        </div>
      )}
    </Loaded>
  );
}
