// The built UI in Debian's Chromium, with the scripted backend: every page in
// its loading, empty, error, live and finished states, as a person sees them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
let server, browser, page;
const errors = [];

before(async () => {
  server = await serve(dist);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.setDefaultTimeout(5000);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const open = (script, hash) => page.goto(`${server.url}?script=${script}#/${hash}`);
const text = (sel) => page.locator(sel).first().innerText();

describe('Library', () => {
  it('shows a card per recipe with its post and runnable lanes', async () => {
    await open('default', 'library');
    const card = page.locator('[data-recipe="hello-ceiling"]');
    await card.waitFor();
    assert.match(await card.innerText(), /Campfire under Falcon/);
    assert.match(await card.innerText(), /Sam Ruby · October 2026/);
    assert.match(await card.locator('.lanes-here').innerText(), /1 of 3 lanes runnable here/);
    assert.match(await text('[data-recipe="campfire-runtimes"]'), /checksum modified/);
  });
  it('shows loading while the app has not answered', async () => {
    await open('slow', 'library');
    assert.match(await text('[role=status]'), /Loading the recipes/);
  });
  it('says what to do when there are no recipes', async () => {
    await open('empty', 'library');
    assert.match(await text('.notice'), /REPRISE_ROOT/);
  });
  it('shows the error where it happened, with what to do', async () => {
    await open('error', 'library');
    assert.match(await text('[role=alert]'), /cannot read \/nowhere\/recipes/);
    assert.match(await text('[role=alert]'), /What to do: Start Reprise from its checkout/);
  });
  it('is keyboard navigable: Tab reaches a card link and Enter opens the post', async () => {
    await open('default', 'library');
    await page.locator('[data-recipe]').first().waitFor();
    let focused = '';
    for (let i = 0; i < 12 && !focused.includes('Campfire under Falcon'); i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    assert.match(focused, /Campfire under Falcon/);
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'the hello-world ceilings' }).waitFor();
  });
});

describe('Post', () => {
  it('lists the figures with their sentences, the claims and the machine', async () => {
    await open('default', 'post/hello-ceiling');
    const puma = page.locator('[data-figure="puma-hello"]');
    await puma.waitFor();
    assert.match(await puma.innerText(), /≈ 54,000 req\/s/);
    assert.match(await puma.innerText(), /about 54,000 requests a second/);
    assert.match(await text('[data-claim="falcon-twice-puma"]'), /tolerance ±15%/);
    assert.match(await text('dl.pairs'), /AMD Ryzen 5 3600/);
  });
  it('shows a broken recipe as an error with the fix', async () => {
    await open('error', 'post/hello-ceiling');
    assert.match(await text('[role=alert]'), /unknown key `titel`/);
    assert.match(await text('[role=alert]'), /reprise check/);
  });
  it('shows loading first', async () => {
    await open('slow', 'post/hello-ceiling');
    assert.match(await text('[role=status]'), /Loading the post hello-ceiling/);
  });
});

describe('Preflight', () => {
  it('says the probe is not in this build and shows what can be checked', async () => {
    await open('default', 'preflight/hello-ceiling');
    assert.match(await text('.notice'), /not in this build/);
    await page.locator('[data-toolchain="falcon"]').waitFor();
    assert.match(await text('[data-toolchain="falcon"]'), /not found/);
    assert.match(await text('[data-toolchain="ruby"]'), /on PATH/);
    assert.match(await text('[data-lane="falcon"]'), /needs a missing toolchain/);
    assert.match(await text('[data-lane="puma"]'), /can run here/);
  });
});

describe('Run', () => {
  it('shows the steps with the post’s reasons and says the engine is not in this build', async () => {
    await open('default', 'run/hello-ceiling');
    assert.match(await text('.notice'), /engine, which is not in this build/);
    await page.locator('[data-step="check"]').waitFor();
    assert.match(await text('[data-step="check"]'), /same body everywhere/);
  });
  it('streams live progress, log and throughput, then shows it finished', async () => {
    await open('default', 'run/hello-ceiling');
    await page.getByRole('button', { name: 'Stream events' }).click();
    const live = page.locator('[data-live-step="measure"]');
    await live.waitFor();
    assert.match(await live.locator('[data-gauge="rps"]').innerText(), /req\/s/);
    await page.locator('[data-live-step="measure"] .status', { hasText: 'finished' }).waitFor();
    assert.equal(await live.locator('progress').evaluate((p) => p.value), 1);
    assert.match(await live.locator('pre.log').innerText(), /run 40: 75,000 req\/s/);
    assert.match(await text('[data-stream-summary]'), /152,501 events in 41 batches/);
  });
});

describe('Results', () => {
  it('shows verdicts with intervals, a chart and the appendix', async () => {
    await open('default', 'results/hello-ceiling-1');
    const v = page.locator('[data-verdict="falcon-twice-puma"]');
    await v.waitFor();
    assert.match(await v.innerText(), /Reproduced/);
    assert.match(await v.innerText(), /1.99× \(1.98–2\)/);
    assert.match(await text('.notice'), /not the post’s/);
    assert.equal(await page.locator('canvas').count(), 1);
    assert.match(await text('[data-result="falcon-hello"]'), /106,000 req\/s\s+60,200 req\/s/);
    await page.locator('summary', { hasText: 'Environment appendix' }).click();
    assert.match(await text('.appendix'), /ruby 3.1.2p20/);
  });
  it('explains an empty history', async () => {
    await open('empty', 'results');
    assert.match(await text('.notice'), /No runs yet/);
  });
  it('shows a history error where it happened', async () => {
    await open('error', 'results');
    assert.match(await text('[role=alert]'), /file is not a database/);
  });
});

describe('Share', () => {
  it('previews the redacted report and how to post it', async () => {
    await open('default', 'share/hello-ceiling-1');
    await page.locator('pre.preview').waitFor();
    assert.match(await text('.redacted'), /desk-seven/);
    assert.doesNotMatch(await text('pre.preview'), /desk-seven/);
    assert.equal(await text('pre.command'), 'reprise share hello-ceiling-1');
  });
});

describe('Machine', () => {
  it('shows what this build can tell and what it cannot', async () => {
    await open('default', 'machine');
    assert.equal(await text('[data-fact="cpus"]'), '2');
    assert.match(await text('.notice'), /not in this build/);
  });
  it('shows an error with what to do', async () => {
    await open('error', 'machine');
    assert.match(await text('[role=alert]'), /Restart the app/);
  });
});

describe('the page', () => {
  it('outside the app without a script says how to open the app', async () => {
    await page.goto(server.url);
    assert.match(await text('.notice'), /scripts\/app/);
  });
  it('logged no script errors in any test', () => {
    assert.deepEqual(errors, []);
  });
});
