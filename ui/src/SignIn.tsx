import { useState } from 'preact/hooks';
import type { ShareStatus } from './bindings/ShareStatus';
import type { SignInCode } from './bindings/SignInCode';
import { toBackendError, type BackendError } from './backend';
import { ErrorBox, useBackend } from './load';
import { formatDuration } from './format';

/** Signing in to GitHub without a registered OAuth app: the app reads
 *  GH_TOKEN or the GitHub CLI's token itself; otherwise the reader pastes a
 *  token (kept, never shown back), or uses the device flow where an OAuth
 *  app is configured. A token is kept only once GitHub names its account;
 *  signed in, the account is named and the kept token can be forgotten
 *  (Sign out). Share and Everyone's results both offer it; where the
 *  page has another main action, `secondary` keeps its button out of the way. */
export function SignIn({ status, onSignedIn, secondary = false }: { status: ShareStatus; onSignedIn: (s: ShareStatus) => void; secondary?: boolean }) {
  const backend = useBackend();
  const [token, setToken] = useState('');
  const [code, setCode] = useState<SignInCode | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BackendError | null>(null);
  if (status.signed_in) {
    const signOut = async () => {
      setError(null);
      setBusy(true);
      try {
        const s = await backend.shareSignOut();
        setBusy(false);
        onSignedIn(s);
      } catch (err) {
        setBusy(false);
        setError(toBackendError(err));
      }
    };
    return (
      <div class="sub" data-signed-in>
        <p class="actions">
          <span data-signed-in-as>
            {status.login ? (
              <>Signed in to GitHub as <strong data-login>{status.login}</strong>, with {status.signed_in_with}.</>
            ) : (
              <>Signed in to GitHub with {status.signed_in_with}.</>
            )}
          </span>
          {status.can_sign_out && (
            <button type="button" class="secondary" onClick={signOut} disabled={busy} data-action="sign-out">
              Sign out
            </button>
          )}
        </p>
        {error && <ErrorBox error={error} title="Not signed out." />}
      </div>
    );
  }
  const keep = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const s = await backend.shareKeepToken(token);
      setToken('');
      setBusy(false);
      onSignedIn(s);
    } catch (err) {
      setBusy(false);
      setError(toBackendError(err));
    }
  };
  const deviceFlow = async () => {
    setError(null);
    setBusy(true);
    try {
      setCode(await backend.shareSignIn());
      await backend.shareWaitSignIn();
      setCode(null);
      setBusy(false);
      onSignedIn(await backend.shareStatus());
    } catch (err) {
      setCode(null);
      setBusy(false);
      setError(toBackendError(err));
    }
  };
  return (
    <div class="sign-in" data-sign-in>
      <p>
        Sign in to GitHub: paste a token (kept in {status.token_store}, never shown), or set <code>GH_TOKEN</code> or sign in the GitHub CLI
        (<code>gh auth login</code>) and reopen this page.
      </p>
      <form class="actions" onSubmit={keep}>
        <input
          type="password"
          autocomplete="off"
          value={token}
          placeholder="ghp_… or github_pat_…"
          aria-label="GitHub token"
          disabled={busy}
          onInput={(e) => setToken(e.currentTarget.value)}
          data-token
        />
        <button type="submit" class={secondary ? 'secondary' : undefined} disabled={busy || token.trim() === ''} data-action="keep-token">
          Keep the token
        </button>
        {status.can_sign_in && !code && (
          <button type="button" class="secondary" onClick={deviceFlow} disabled={busy} data-action="sign-in">
            Sign in with a code instead
          </button>
        )}
      </form>
      {code && (
        <div class="device-code" role="status">
          <p>Open <code>{code.verification_uri}</code> in your browser and enter this code:</p>
          <p class="code" data-user-code>{code.user_code}</p>
          <p class="sub">Waiting for GitHub… the code expires in {formatDuration(code.expires_in)}.</p>
        </div>
      )}
      {error && <ErrorBox error={error} title="Not signed in." />}
    </div>
  );
}
