// W3C WebDriver over plain fetch: WebKitWebDriver (Debian's webkit2gtk-driver)
// drives the real desktop app. On Linux tauri-driver only relays to it,
// turning `tauri:options` into `webkitgtk:browserOptions` and setting
// TAURI_WEBVIEW_AUTOMATION; both are done here, so nothing is built for it.
// Only what the e2e test and the bench need.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/**
 * Starts WebKitWebDriver on a port of 127.0.0.1 and waits until it answers.
 * The apps it starts inherit `env` (and TAURI_WEBVIEW_AUTOMATION, without
 * which a Tauri app's webview is not driven). It runs in its own process
 * group with the app it starts, so `stop()` ends both: an app left behind
 * (seen when a session's close raced the driver's exit) would hold the test
 * runner's output open forever.
 */
export async function startDriver({ driver = 'WebKitWebDriver', port = 4444, env = {}, cwd } = {}) {
  const child = spawn(driver, [`--port=${port}`, '--host=127.0.0.1'], {
    // Its stdout carries the HTTP traffic; its errors are worth seeing.
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, TAURI_WEBVIEW_AUTOMATION: 'true', ...env },
    cwd,
    detached: true,
  });
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  const stop = async () => {
    signal('SIGTERM');
    for (let i = 0; i < 30 && signal(0); i++) await sleep(100);
    signal('SIGKILL');
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`${base}/status`);
      if (r.ok) return { base, stop };
    } catch {}
    if (child.exitCode !== null) throw new Error(`${driver} exited with ${child.exitCode}`);
    await sleep(100);
  }
  await stop();
  throw new Error(`${driver} did not answer within 10 s`);
}

async function call(base, method, path, body) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
  return json.value;
}

/** A session with the app at `application` started (as tauri-driver asks WebKitWebDriver). */
export async function newSession(base, application) {
  const value = await call(base, 'POST', '/session', {
    capabilities: { alwaysMatch: { browserName: 'wry', 'webkitgtk:browserOptions': { binary: application, args: [] } } },
  });
  return new Session(base, value.sessionId);
}

export class Session {
  constructor(base, id) {
    this.base = base;
    this.path = `/session/${id}`;
  }
  cmd(method, path, body) {
    return call(this.base, method, `${this.path}${path}`, body);
  }
  close() {
    return this.cmd('DELETE', '');
  }
  script(source, args = []) {
    return this.cmd('POST', '/execute/sync', { script: source, args });
  }
  async find(css) {
    const v = await this.cmd('POST', '/element', { using: 'css selector', value: css });
    return v[ELEMENT];
  }
  /** Polls for an element whose text matches, up to `timeoutMs`. */
  async waitFor(css, { text, timeoutMs = 15000 } = {}) {
    const end = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < end) {
      try {
        const el = await this.find(css);
        last = await this.text(el);
        if (!text || text.test(last)) return el;
      } catch {}
      await sleep(50);
    }
    throw new Error(`no ${css}${text ? ` matching ${text}` : ''} within ${timeoutMs} ms (last text: ${JSON.stringify(last)})`);
  }
  text(el) {
    return this.cmd('GET', `/element/${el}/text`);
  }
  click(el) {
    return this.cmd('POST', `/element/${el}/click`, {});
  }
  /** Runs `fn` with the session switched into the frame `el`, then back. */
  async inFrame(el, fn) {
    await this.cmd('POST', '/frame', { id: { [ELEMENT]: el } });
    try {
      return await fn();
    } finally {
      await this.cmd('POST', '/frame/parent', {});
    }
  }
  /** Navigates inside the app by its hash route (no reload). */
  go(hash) {
    return this.script('location.hash = arguments[0]; return location.hash;', [hash]);
  }
  async screenshot() {
    return Buffer.from(await this.cmd('GET', '/screenshot'), 'base64');
  }
}
