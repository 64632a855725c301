import { Loaded, Notice, useLoad } from '../load';
import { RunList } from './Results';

export function SharePage({ run }: { run?: string }) {
  const runs = useLoad((b) => b.history(), []);
  return (
    <>
      <h1>Share</h1>
      <p class="lede">Post a run to GitHub Discussions. You see exactly what will be posted, with host and user names redacted.</p>
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
            {p.redacted.length > 0 ? (
              <>Redacted: {p.redacted.map((r) => <code>{r}</code>)} (replaced before anything leaves this machine)</>
            ) : (
              'Nothing to redact: the fingerprint names no host or user.'
            )}
          </p>
          <pre class="preview" tabIndex={0} aria-label="Report body">{p.body}</pre>
          <h2>Post it</h2>
          <Notice>
            Signing in to GitHub from the app (device-flow code) is not in this build. The CLI signs in with the device
            flow, shows the code, posts this exact text and prints the link:
          </Notice>
          <pre class="command">{p.cli_command}</pre>
          {p.prefilled_url ? (
            <p>
              Or open a new discussion with this text filled in:{' '}
              <input class="url" readOnly value={p.prefilled_url} aria-label="Prefilled discussion link" onFocus={(e) => e.currentTarget.select()} />
            </p>
          ) : (
            <p class="sub">Set REPRISE_DISCUSSIONS_REPO=owner/name to get a prefilled new-discussion link here.</p>
          )}
        </section>
      )}
    </Loaded>
  );
}
