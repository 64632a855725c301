// bench/desktop's measurements, printed:
// 1. launch → interactive Library: from asking WebKitWebDriver for a session
//    (which starts the app) until a recipe card's link is on the page and
//    answers a click; against the peer, `reprise recipes` listing the same
//    recipes in a terminal.
// 2. frame rate while the app forwards a full-speed synthetic event stream
//    (a bench build's `bench_stream`), against the same page idle.
import { execFileSync } from 'node:child_process';
import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { newSession, startDriver } from './webdriver.mjs';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const app = process.env.REPRISE_APP ?? join(root, 'target/debug/reprise-desktop-bench');
const cli = process.env.REPRISE_CLI ?? join(root, 'target/debug/reprise');
const rounds = Number(process.env.ROUNDS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const driver = await startDriver({ env: { REPRISE_ROOT: root } });
try {
  const launches = [];
  const skeletons = [];
  const libraries = [];
  const peers = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const launched = Date.now(); // the page's performance.timeOrigin is on this clock
    const s = await newSession(driver.base, app);
    const link = await s.waitFor('[data-recipe="hello-ceiling"] h2 a', { timeoutMs: 60000 });
    const painted = await s.script(
      'const fcp = performance.getEntriesByName("first-contentful-paint")[0]; return [performance.timeOrigin, fcp ? fcp.startTime : null, window.__repriseLibraryPainted ?? null]',
    );
    const [origin, fcp, library] = painted;
    if (fcp === null || library === null) throw new Error(`the page did not record its paints: ${JSON.stringify(painted)}`);
    skeletons.push(origin + fcp - launched);
    libraries.push(origin + library - launched);
    await s.click(link);
    await s.waitFor('[data-figure="puma-hello"]');
    launches.push(performance.now() - t0);
    if (i === rounds - 1) await measureFrames(s);
    await s.close();
    const p0 = performance.now();
    execFileSync(cli, ['recipes'], { env: { ...process.env, REPRISE_ROOT: root }, stdio: 'ignore' });
    peers.push(performance.now() - p0);
  }
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
  const skeleton_ms = median(skeletons);
  const library_ms = median(libraries);
  console.log(`launch → first paint (the skeleton): ${skeleton_ms.toFixed(0)} ms median of ${rounds} [${list(skeletons)}]`);
  console.log(`launch → Library painted with its recipes: ${library_ms.toFixed(0)} ms median [${list(libraries)}]; goal ≤ 1000 ms: ${library_ms <= 1000 ? 'met' : 'NOT met'}`);
  const app_ms = median(launches);
  const cli_ms = median(peers);
  console.log(`launch → interactive Library (and a click into a post): ${app_ms.toFixed(0)} ms median of ${rounds} [${launches.map((x) => x.toFixed(0)).join(', ')}]`);
  console.log(`peer: \`reprise recipes\` in a terminal: ${cli_ms.toFixed(0)} ms median [${peers.map((x) => x.toFixed(0)).join(', ')}]`);
  console.log(`ratio app / cli: ${(app_ms / cli_ms).toFixed(1)}×`);
} finally {
  await driver.stop();
}

async function frames(s) {
  return s.script('return window.__repriseFrames');
}

async function fps(s, ms) {
  const f0 = await frames(s);
  const t0 = performance.now();
  await sleep(ms);
  return ((await frames(s)) - f0) / ((performance.now() - t0) / 1000);
}

async function stream(s, action) {
  await s.click(await s.find(`[data-action="${action}"]`));
  await sleep(250);
  const rate = await fps(s, 2000);
  await s.waitFor('[data-stream-done]', { timeoutMs: 20000 });
  return rate;
}

async function measureFrames(s) {
  await s.go('#/run/hello-ceiling');
  await s.waitFor('[data-action="stream"]', { text: /Stream events/ });
  const idle = await fps(s, 2000);
  const control = await stream(s, 'produce-only');
  const busy = await stream(s, 'stream');
  const text = await s.text(await s.find('[data-stream-summary]'));
  console.log(`frame rate: idle ${idle.toFixed(1)} fps; events produced but not forwarded (control) ${control.toFixed(1)} fps; produced and forwarded ${busy.toFixed(1)} fps`);
  console.log(`ratio forwarded / control: ${(busy / control).toFixed(2)}; forwarded / idle: ${(busy / idle).toFixed(2)}`);
  console.log(`goal ≥ 50 fps while a full-speed run streams: ${busy >= 50 ? 'met' : 'NOT met'} (${busy.toFixed(1)} fps)`);
  console.log(`forwarded stream over 3 s: ${text}`);
}
