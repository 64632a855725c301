import { render } from 'preact';
import { Channel, invoke } from '@tauri-apps/api/core';
import { tauriBackend, tauriCommands, type Backend } from './backend';
import { App } from './App';
import { parseRoute } from './state';
import './styles.css';

declare global {
  interface Window {
    __TAURI_INTERNALS__?: unknown;
    /** Frames drawn since load, read by bench/desktop over WebDriver. */
    __repriseFrames?: number;
    /** When the Library's cards were first painted; see below. */
    __repriseLibraryPainted?: number;
  }
}

async function chooseBackend(): Promise<Backend | string> {
  if (window.__TAURI_INTERNALS__) {
    const client = tauriCommands(invoke, () => new Channel());
    return tauriBackend(client, await client.capabilities());
  }
  // Test builds only: the branch and its import are dropped from the app's bundle.
  if (__TEST_FIXTURES__) {
    const { scriptedFromSearch } = await import('./testing/scripts');
    const scripted = scriptedFromSearch(location.search);
    if (scripted) return scripted;
  }
  return 'This page is Reprise’s desktop app. Open it with scripts/app, or use the CLI (scripts/run).';
}

window.__repriseFrames = 0;
const tick = () => {
  window.__repriseFrames = (window.__repriseFrames ?? 0) + 1;
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);

const root = document.getElementById('app')!;
const backend = await chooseBackend().catch((e) => `The app did not answer (${e}); restart it.`);
if (typeof backend === 'string') {
  root.innerHTML = '';
  const p = document.createElement('p');
  p.className = 'notice';
  p.textContent = backend;
  root.append(p);
} else {
  root.replaceChildren(); // the skeleton index.html painted
  render(<App backend={backend} />, root);
}

// When the Library's cards were first painted (ms since the page's time
// origin), read by bench/desktop with the first contentful paint. It watches
// only until the first page has its data (the Library's cards, or any other
// page's first render), never a live run's updates.
if (parseRoute(location.hash).page === 'library') {
  const observer = new MutationObserver(() => {
    if (!root.querySelector('[data-recipe]') && !root.querySelector('[role=alert]')) return;
    observer.disconnect();
    requestAnimationFrame(() => (window.__repriseLibraryPainted = performance.now()));
  });
  observer.observe(root, { childList: true, subtree: true });
  addEventListener('hashchange', () => observer.disconnect(), { once: true });
}
