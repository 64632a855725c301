// The real desktop app under Xvfb, driven by WebKitWebDriver:
// open it, see the Library, open hello-ceiling and its figures, preflight
// from the probe, a run by the engine with every step ending, a run
// cancelled while it measures, results with verdicts (from a results
// directory judged by the CLI into a history made by the test), the share
// preview, the machine; then, started again with GH_TOKEN set, everyone's
// results read from the stand-in of GitHub's GraphQL API. Every page is
// checked whole at the app's size (1180×800): no sideways scroll, no
// sentence said twice. Screenshots of every page go to $SCREENSHOTS
// (SCREENSHOTS=docs/screenshots refreshes the docs'; by default a folder
// under the temp dir, so a test run leaves the checkout as it was).
//
// Needs: REPRISE_APP (the app binary), REPRISE_CLI (target/debug/reprise).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import { newSession, startDriver } from './webdriver.mjs';
import { repeatedSentences, sidewaysScroll } from '../page-checks.mjs';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const app = process.env.REPRISE_APP ?? join(root, 'target/debug/reprise-desktop');
const cli = process.env.REPRISE_CLI ?? join(root, 'target/debug/reprise');
const shots = process.env.SCREENSHOTS ?? join(tmpdir(), 'reprise-screenshots');
const data = mkdtempSync(join(tmpdir(), 'reprise-e2e-'));
let driver, s, runId, github, engineRun, cancelledRun;
const posted = [];
// Every discussion posted to the stand-in, as GitHub keeps them.
const discussions = [];
// The Authorization header of every read of the discussions.
const reads = [];

/** Who each token signs in as: the reader (by the device flow, then by
 *  GH_TOKEN) and a stranger who shares from another machine. */
const ENV_TOKEN = 'ghp_e2e_from_the_environment_01';
const STRANGER_TOKEN = 'ghp_e2e_of_a_stranger_000000001';
const logins = { gho_e2e: 'e2e-reader', [ENV_TOKEN]: 'e2e-reader', [STRANGER_TOKEN]: 'stranger' };

/** A stand-in for github.com on 127.0.0.1, speaking its wire format: the
 *  device flow, and GraphQL's discussion categories, createDiscussion and
 *  a repository's discussions (newest-updated first, in one page). */
async function standIn() {
  let polls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      const login = logins[(req.headers.authorization ?? '').replace(/^bearer /i, '')];
      let answer = { message: 'Not Found' };
      let status = 200;
      if (url.pathname === '/login/device/code')
        answer = { device_code: 'dc-1', user_code: 'WDJB-MJHT', verification_uri: `${base}/login/device`, expires_in: 900, interval: 1 };
      else if (url.pathname === '/login/oauth/access_token')
        answer = ++polls < 2 ? { error: 'authorization_pending' } : { access_token: 'gho_e2e', token_type: 'bearer', scope: 'public_repo' };
      else if (url.pathname === '/graphql' && !login) {
        status = 401;
        answer = { message: 'Bad credentials' };
      } else if (url.pathname === '/graphql' && body.includes('createDiscussion')) {
        posted.push({ authorization: req.headers.authorization, body });
        const { title, body: text } = JSON.parse(body).variables;
        const number = discussions.length + 1;
        discussions.push({ id: `D_${number}`, number, title, body: text, updatedAt: `2026-12-01T06:0${number}:00Z`, author: { login } });
        answer = { data: { createDiscussion: { discussion: { url: `https://github.com/rubys/reprise/discussions/${number}`, number } } } };
      } else if (url.pathname === '/graphql' && body.includes('discussions(')) {
        reads.push(req.headers.authorization);
        const nodes = [...discussions].reverse();
        answer = { data: { viewer: { login }, repository: { discussions: { totalCount: nodes.length, pageInfo: { hasNextPage: false, endCursor: 'c1' }, nodes } } } };
      } else if (url.pathname === '/graphql')
        answer = { data: { repository: { id: 'R_1', discussionCategories: { nodes: [{ id: 'C_1', name: 'hello-ceiling', slug: 'hello-ceiling' }] } } } };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { base, close: () => server.close() };
}

function seedHistory() {
  const results = join(data, 'results');
  mkdirSync(results);
  const lines = [];
  for (const [lane, base] of [['puma', 30000], ['falcon', 60000]])
    for (const run of [1, 2, 3]) lines.push(JSON.stringify({ target: lane, workers: 2, endpoint: '/', run, req_sec: base + run * 100 }));
  writeFileSync(join(results, 'per-run.json'), lines.join('\n') + '\n');
  writeFileSync(join(results, 'env.json'), JSON.stringify({ host: { hostname: 'desk-seven' }, cpu: { brand: 'Test CPU', logical: 2 } }));
  execFileSync(cli, ['verdict', 'hello-ceiling', results], { env: { ...process.env, REPRISE_DATA_DIR: join(data, 'store'), REPRISE_ROOT: root }, stdio: 'ignore' });
}

/** Checks the page whole, as a reader meets it, then keeps its picture. */
async function shoot(name) {
  await checkWhole(name);
  writeFileSync(join(shots, `${name}.png`), await s.screenshot());
}

/** No sideways scroll at the app's size, and no sentence said twice. */
async function checkWhole(name) {
  assert.equal(await s.script(`return (${sidewaysScroll})()`), 0, `${name} scrolls sideways`);
  assert.deepEqual(await s.script(`return (${repeatedSentences})()`), [], `${name} says a sentence twice`);
}

/** Another machine's run of hello-ceiling, judged by the CLI and shared with
 *  `reprise share` by a stranger signed in with GH_TOKEN (run without
 *  blocking: the stand-in answering it lives in this process). */
async function strangerShares() {
  const store = join(data, 'stranger');
  const results = join(store, 'results');
  mkdirSync(results, { recursive: true });
  const lines = [];
  for (const [lane, base] of [['puma', 20000], ['falcon', 41000]])
    for (const run of [1, 2, 3]) lines.push(JSON.stringify({ target: lane, workers: 2, endpoint: '/', run, req_sec: base + run * 100 }));
  writeFileSync(join(results, 'per-run.json'), lines.join('\n') + '\n');
  writeFileSync(join(results, 'env.json'), JSON.stringify({ host: { hostname: 'strangers-box' }, cpu: { brand: 'Other CPU', logical: 8 } }));
  const env = {
    ...process.env,
    REPRISE_DATA_DIR: store,
    REPRISE_ROOT: root,
    // The stand-in is its own web host: a token goes only to its web host's API.
    REPRISE_GITHUB_URL: github.base,
    REPRISE_GITHUB_API_URL: github.base,
    REPRISE_DISCUSSIONS_REPO: 'rubys/reprise',
    REPRISE_TOKEN_STORE: 'file',
    GH_TOKEN: STRANGER_TOKEN,
  };
  const run = async (args) => (await promisify(execFile)(cli, args, { env, encoding: 'utf8' })).stdout;
  const judged = await run(['verdict', 'hello-ceiling', results]);
  const id = judged.match(/^Stored as run ([^:]+):/m)[1];
  const shared = await run(['share', id, '--yes']);
  assert.match(shared, /Posted: https:\/\/github\.com\/rubys\/reprise\/discussions\/\d+/);
}

before(async () => {
  mkdirSync(shots, { recursive: true });
  seedHistory();
  github = await standIn();
  driver = await startDriver({ env: appEnv() });
  s = await newSession(driver.base, app);
});
after(async () => {
  await s?.close().catch(() => {});
  await driver?.stop();
  github?.close();
});

/** The app's environment: its own data directory and the stand-in. */
function appEnv() {
  return {
      REPRISE_DATA_DIR: join(data, 'store'),
      REPRISE_ROOT: root,
      REPRISE_GITHUB_URL: github.base,
      REPRISE_GITHUB_API_URL: github.base,
      REPRISE_GITHUB_CLIENT_ID: 'Iv1.e2e',
      REPRISE_DISCUSSIONS_REPO: 'rubys/reprise',
      REPRISE_TOKEN_STORE: 'file',
      // Signed in only as each test says, not by this machine's environment.
      GH_TOKEN: '',
      GITHUB_TOKEN: '',
      // The app turns WebKitGTK's compositing off (see plain_rendering in
      // src-tauri/src/lib.rs); without compositing, WebKitWebDriver's
      // screenshot of a page shorter than the window never answers
      // (WebKitGTK 2.50.6). The screenshots are taken with it on.
      WEBKIT_DISABLE_COMPOSITING_MODE: '0',
  };
}

describe('the desktop app', () => {
  it('opens on the Library with hello-ceiling', async () => {
    const card = await s.waitFor('[data-recipe="hello-ceiling"]', { text: /Campfire under Falcon/ });
    assert.match(await s.text(card), /lanes runnable here/);
    // The run the test seeded, with its verdicts; a published-only recipe says it has nothing to run.
    await s.waitFor('[data-recipe="hello-ceiling"] .last-run', { text: /^Last run here .+: \d+ reproduced/ });
    assert.equal(await s.text(await s.find('[data-recipe="nonblocking-db"] .lanes-here')), 'published figures only — nothing to run');
    assert.match(await s.text(await s.find('[data-recipe="hello-ceiling"] .recipe-id')), /same post as campfire-falcon/);
    await shoot('library');
  });

  it('opens hello-ceiling and shows its figures with their sentences', async () => {
    await s.click(await s.find('[data-recipe="hello-ceiling"] h2 a'));
    const puma = await s.waitFor('[data-figure="puma-hello"]', { text: /54,000 req\/s/ });
    assert.match(await s.text(puma), /about 54,000 requests a second/);
    // hello-ceiling's recipe gives no URL for the post, and the page says so.
    await s.waitFor('[data-no-post-link]', { text: /no link to the post/ });
    await shoot('post');
  });

  it('shows preflight: this machine against the post’s, item by item', async () => {
    await s.go('#/preflight/hello-ceiling');
    await s.waitFor('[data-preflight-summary]', { text: /lanes run here|Nothing blocks/, timeoutMs: 30000 });
    // The hardware is folded under its heading; open it.
    await s.click(await s.waitFor('[data-hardware] > summary', { text: /This machine against the post’s/ }));
    const cpu = await s.waitFor('[data-item="CPU"]', { text: /AMD Ryzen 5 3600/ });
    assert.match(await s.text(cpu), /matches|differs|blocks/);
    await shoot('preflight');
  });

  it('runs hello-ceiling quick with the engine, watches every step end, and sees its verdicts', async () => {
    await s.go('#/run/hello-ceiling');
    await s.waitFor('[data-step="measure"]', { text: /warm-up|load/ });
    await s.click(await s.find('[data-option="quick"]'));
    await s.click(await s.find('[data-action="start"]'));
    await s.waitFor('[data-step][data-status="running"]', { timeoutMs: 30000 });
    // Where the run is: the time so far, and once measuring the cell and about how long is left.
    await s.waitFor('[data-run-status]', { text: /^\d+(\.\d)? s elapsed · /, timeoutMs: 30000 });
    await s.waitFor('[data-run-status]', { text: /measure: \S+ \/ \/, run [12] of 2 · cell \d of \d · about .* left to measure/, timeoutMs: 120000 });
    await s.waitFor('[data-run-outcome]', { text: /finished/, timeoutMs: 240000 });
    const outcome = await s.script('return document.querySelector("[data-run-outcome]").textContent');
    engineRun = outcome.match(/^Run (\S+) /)[1];
    // How it ended, by the session's one rule: falcon is not installed here.
    assert.match(outcome, /^Run hello-ceiling-\S+ finished with lanes missing: \d+ steps? finished/);
    assert.doesNotMatch(outcome, /\b0 (skipped|failed|kept)|failed/);
    // Every lane the run did not measure is listed with why: falcon, which scripts/test does not install.
    const skipped = await s.script('return [...document.querySelectorAll("[data-skipped-lane]")].map((e) => e.textContent)');
    assert.equal(skipped.length, 1, `skipped lanes: ${skipped}`);
    assert.match(skipped[0], /^Lane falcon was not measured: preflight: .*it needs falcon, which this machine lacks/);
    assert.match(await s.script('return document.querySelector("[data-run-status]").textContent'), /^Ran for /);
    const statuses = await s.script('return [...document.querySelectorAll("[data-step]")].map((e) => e.dataset.status)');
    assert.ok(statuses.length >= 3);
    for (const st of statuses) assert.match(st, /^(finished|skipped)$/);
    assert.ok(statuses.includes('finished'), `no step finished: ${statuses}`);
    await shoot('run');
    await s.click(await s.find('[data-results-link]'));
    await s.waitFor('[data-verdict]', { text: /Reproduced|Not reproduced|Inconclusive|No data|Not measured|Not comparable/ });
  });

  it('cancels a run while it measures, shows it cancelled, and offers Resume first', async () => {
    await s.go('#/library');
    await s.go('#/run/hello-ceiling');
    // The run above finished: starting again is a new run, not a resume of it.
    await s.waitFor('[data-action="start"]', { text: /^Start the run/ });
    // Quick, as the run above: a smoke run, which the machine's results below leave aside.
    if (!(await s.script('return document.querySelector("[data-option=quick]").checked'))) await s.click(await s.find('[data-option="quick"]'));
    await s.click(await s.find('[data-action="start"]'));
    await s.waitFor('[data-gauge="rps"]', { text: /req\/s/, timeoutMs: 120000 });
    await s.click(await s.find('[data-action="cancel"]'));
    const outcome = await s.waitFor('[data-run-outcome][data-ending="cancelled"]', { timeoutMs: 60000 });
    const said = await s.text(outcome);
    assert.match(said, /^Run hello-ceiling-\S+ cancelled/);
    cancelledRun = said.match(/^Run (\S+) /)[1];
    // The live figures were the run going on: gone with it.
    assert.equal(await s.script('return document.querySelectorAll("[data-gauge]").length'), 0);
    assert.equal(await s.script('return document.querySelectorAll("[data-results-link], [data-action=see-results]").length'), 0);
    // Resume is the first action, and the main one.
    const first = await s.script('const b = document.querySelector(".actions button, .actions a.button"); return [b.dataset.action, b.className, b.textContent]');
    assert.equal(first[0], 'start');
    assert.doesNotMatch(first[1], /secondary/);
    assert.ok(first[2].startsWith(`Resume run ${cancelledRun}`), first[2]);
    await checkWhole('run (cancelled)');
  });

  it('shows results with a card per claim', async () => {
    await s.go('#/results');
    await s.waitFor('[data-run] a', { text: /hello-world ceilings/ });
    // The run judged from the results directory made by the test (the engine's run is the other one).
    await s.script('[...document.querySelectorAll("[data-run]")].find((li) => !arguments[0].includes(li.dataset.run)).querySelector("a").click()', [[engineRun, cancelledRun]]);
    const v = await s.waitFor('[data-verdict="falcon-twice-puma"]', { text: /Reproduced/ });
    assert.match(await s.text(v), /[Mm]easured 1\.9\d×/);
    runId = await s.script('return decodeURIComponent(location.hash.split("/")[2])');
    // Each measured claim's card draws the band it accepts and the measured interval on one axis.
    await s.waitFor('[data-verdict="falcon-twice-puma"] [data-claim-picture] [data-band]');
    assert.equal(await s.script('return document.querySelectorAll(\'[data-verdict="falcon-twice-puma"] [data-claim-picture] [data-interval]\').length'), 1);
    // The engine's quick run is labelled a smoke run in the list; the measured one is not.
    const smoke = (id) => s.script('return document.querySelector(`[data-run="${arguments[0]}"] [data-smoke-run]`) !== null', [id]);
    if (engineRun) assert.equal(await smoke(engineRun), true);
    assert.equal(await smoke(runId), false);
    // The list words its counts as the headline; dates read as dates.
    const tallies = await s.script('return [document.querySelector(`[data-run="${arguments[0]}"] [data-tally]`).textContent, document.querySelector(".report [data-tally]").textContent]', [runId]);
    assert.equal(tallies[0], tallies[1]);
    assert.match(tallies[1], /^\d+ (reproduced|not reproduced|inconclusive|no data|not measured|not comparable)( · \d+ [a-z ]+)*$/);
    assert.doesNotMatch(await s.text(await s.find('.runs')), /\d{4}-\d\d-\d\dT/);
    await s.waitFor('[data-measured-lanes] [data-lane="puma"]', { text: /req\/s \(/ });
    await s.waitFor('[data-measured-on] [data-fact="CPU"]', { text: /^Test CPU$/ });
    await shoot('results');
  });

  it('leads a reader with no token from the verdict to the discussions, public in a browser', async () => {
    await s.go(`#/post/hello-ceiling`);
    await s.click(await s.waitFor('[data-others-link]'));
    await s.waitFor('[data-discussions-link] a', { text: /read them on GitHub/, timeoutMs: 30000 });
    assert.equal(await s.script('return document.querySelector("[data-discussions-link] a").getAttribute("href")'), `${github.base}/rubys/reprise/discussions`);
    assert.match(await s.text(await s.find('[data-discussions-link]')), /Signed in, this page reads them/);
    // No read of GitHub's API was made without a token.
    assert.equal(reads.length, 0);
    await checkWhole('others (no token)');
  });

  it('previews the share redacted, signs in with the device code and posts', async () => {
    await s.go(`#/share/${encodeURIComponent(runId)}`);
    await s.waitFor('.redacted', { text: /desk-seven/ });
    assert.equal(await s.script('return document.querySelector("[data-field=repo]").value'), 'rubys/reprise');
    // Rendered by the report exporter in a frame that runs no scripts, redacted as the Markdown is.
    const html = await s.script('return document.querySelector("[data-report-preview]").srcdoc');
    assert.match(html, /<h1>Reprise: /);
    assert.doesNotMatch(html, /desk-seven/);
    // ... and the frame shows it under the app's content security policy.
    const heading = await s.inFrame(await s.find('[data-report-preview]'), async () => s.text(await s.waitFor('h1', { text: /^Reprise: / })));
    assert.match(heading, /hello-world ceilings/);
    await s.click(await s.find('details.markdown > summary'));
    const body = await s.text(await s.find('pre.preview'));
    assert.doesNotMatch(body, /desk-seven/);
    assert.match(body, /hello-world ceilings/);
    await s.click(await s.find('[data-action="sign-in"]'));
    await s.waitFor('[data-user-code]', { text: /^WDJB-MJHT$/ });
    await s.script('document.querySelector(".device-code").scrollIntoView({ block: "center" })');
    await shoot('share');
    const submit = await s.waitFor('[data-action="submit"]', { text: /Post to rubys\/reprise/, timeoutMs: 20000 });
    await s.click(submit);
    await s.waitFor('[data-share-status] .posted');
    assert.equal(await s.script('return document.querySelector("[data-posted]").value'), 'https://github.com/rubys/reprise/discussions/1');
    assert.equal(posted.length, 1);
    assert.match(posted[0].authorization, /^bearer gho_e2e$/i);
    assert.doesNotMatch(posted[0].body, /desk-seven/);
  });

  it('shows this machine’s fingerprint and validates it', async () => {
    await s.go('#/machine');
    await s.waitFor('[data-summary="Cores"]', { text: /\d+ threads/ });
    const threads = await s.script('return document.querySelector(\'[data-fact="cpu.logical_threads"]\').textContent');
    assert.ok(Number(threads) >= 1);
    await s.click(await s.find('[data-action="validate"]'));
    await s.waitFor('[data-validating]', { text: /Validating \(quick/ });
    const verdict = await s.waitFor('[data-fitness] .fitness', { text: /^(Ready to benchmark on|Usable, with caveats|Not suitable for benchmarking)$/, timeoutMs: 120000 });
    assert.ok(await s.text(verdict));
    assert.match(await s.text(await s.find('.validation-summary')), /^reprise validate: /);
    assert.match(await s.text(await s.find('[data-ceiling]')), /Loopback ceiling: /);
    assert.match(await s.text(await s.find('[data-fitness] .meta')), /Saved in the history as machine-/);
    await shoot('machine');
  });

  it('scrolls no recipe’s Run page and no run’s Results sideways, every log and fold open', async () => {
    const openAll = 'document.querySelectorAll("details").forEach((d) => { d.open = true; })';
    await s.go('#/library');
    await s.waitFor('[data-recipe="hello-ceiling"]');
    const recipes = await s.script('return [...document.querySelectorAll("[data-recipe]")].map((c) => c.dataset.recipe)');
    assert.deepEqual(recipes.sort(), readdirSync(join(root, 'recipes')).filter((f) => f.endsWith('.toml')).map((f) => f.slice(0, -5)).sort());
    for (const id of recipes) {
      await s.go(`#/run/${id}`);
      // Its plan, once made (the page keeps the previous one shown until then).
      await s.waitFor(`[data-plan="${id}"]`, { timeoutMs: 30000 });
      await s.script(openAll);
      await checkWhole(`run/${id}`);
    }
    // hello-ceiling's Run page still holds the engine's cancelled run above, its log among the folds opened.
    await s.go('#/run/hello-ceiling');
    await s.waitFor('[data-run-outcome]');
    await s.script(openAll);
    assert.ok(await s.script('return document.querySelectorAll("pre.log").length') >= 1, 'a log is open on hello-ceiling’s Run page');
    await checkWhole('run/hello-ceiling (logs open)');
    await s.go('#/results');
    await s.waitFor('[data-run] a');
    const runs = await s.script('return [...document.querySelectorAll("[data-run]")].map((li) => li.dataset.run)');
    assert.ok(runs.length >= 3, `the Results list ${runs.length} runs`);
    for (const run of runs) {
      await s.go(`#/results/${encodeURIComponent(run)}`);
      await s.waitFor(`[data-report="${run}"]`, { timeoutMs: 30000 });
      await s.script(openAll);
      await checkWhole(`results/${run}`);
    }
  });
});

describe('the desktop app, started again with GH_TOKEN set', () => {
  before(async () => {
    await strangerShares();
    await s.close();
    await driver.stop();
    driver = await startDriver({ env: { ...appEnv(), GH_TOKEN: ENV_TOKEN } });
    s = await newSession(driver.base, app);
  });

  it('reads everyone’s results signed in by GH_TOKEN, this machine’s shared run among them', async () => {
    await s.go('#/others/hello-ceiling');
    // A wait, not a speed: beside the test command's other lane the app's
    // first fetch has taken past 30 s once (it passed alone at once).
    await s.waitFor('[data-fetch="fetched"]', { text: /^Fetched 2 new or changed discussions\./, timeoutMs: 90000 });
    assert.ok(reads.length >= 1 && reads.every((a) => a.toLowerCase() === `bearer ${ENV_TOKEN}`), 'every read carries GH_TOKEN');
    assert.match(await s.text(await s.find('[data-counted]')), /^2 results counted/);
    // Both machines are drawn on the claim they measured; this machine's is marked.
    const points = await s.script('return [...document.querySelectorAll(\'[data-claim="falcon-twice-puma"] [data-point]\')].map((p) => p.dataset.point)');
    assert.deepEqual(points.sort(), ['1', '2']);
    assert.match(await s.text(await s.find('[data-this-run]')), new RegExp(`^Run ${runId} on Test CPU, shared as #1\\.$`));
    await s.script('document.querySelector(\'[data-claim="falcon-twice-puma"]\').scrollIntoView()');
    await shoot('others');
  });
});
