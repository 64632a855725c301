// The app as people install it on Debian/Ubuntu: the .deb Tauri's bundler
// made (REPRISE_DEB, from scripts/test-desktop) is checked, installed with
// apt (which resolves its dependencies), launched from its installed path
// under Xvfb by WebKitWebDriver, and removed again. Run from a folder with no
// recipes and without REPRISE_ROOT, the installed app must find the recipes
// and their reviewed checksums it carries, and say each recipe is reviewed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newSession, startDriver } from '../desktop/webdriver.mjs';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const deb = process.env.REPRISE_DEB;
const sudo = process.getuid() === 0 ? [] : ['sudo', '-n'];
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', ...opts });
const asRoot = (args) => run(sudo[0] ?? args[0], sudo.length ? [...sudo.slice(1), ...args] : args.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
const recipes = readdirSync(join(root, 'recipes')).filter((f) => f.endsWith('.toml'));
/** Whether dpkg has the package installed (dpkg-query exits 1 for one it never saw). */
const installed = (name) => spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' }).stdout.includes('install ok installed');
let pkg, installedBefore, driver, s, home;

before(() => {
  assert.ok(deb && existsSync(deb), `REPRISE_DEB must name the bundled .deb (got ${deb})`);
  pkg = run('dpkg-deb', ['--field', deb, 'Package']).trim();
  installedBefore = installed(pkg);
});

after(async () => {
  await s?.close().catch(() => {});
  await driver?.stop();
  if (pkg && !installedBefore && installed(pkg)) asRoot(['apt-get', 'remove', '-y', '-qq', pkg]);
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('the .deb', () => {
  it('declares the WebKitGTK it needs and carries the binary, the menu entry, the icons and the recipes', () => {
    const depends = run('dpkg-deb', ['--field', deb, 'Depends']);
    assert.match(depends, /libwebkit2gtk-4\.1-0/);
    assert.match(depends, /libgtk-3-0/);
    // `tar tv`-style lines; the paths as dpkg-deb prints them, with or without a leading "./".
    const files = new Set(run('dpkg-deb', ['--contents', deb]).split('\n').map((l) => l.split(/\s+/).slice(5).join(' ').replace(/^\.\//, '')));
    for (const path of [
      'usr/bin/reprise-desktop',
      'usr/share/applications/Reprise.desktop',
      'usr/share/icons/hicolor/32x32/apps/reprise-desktop.png',
      'usr/share/icons/hicolor/128x128/apps/reprise-desktop.png',
      'usr/share/icons/hicolor/512x512/apps/reprise-desktop.png',
      'usr/lib/Reprise/checksums/recipes.sha256',
      ...recipes.map((r) => `usr/lib/Reprise/recipes/${r}`),
    ])
      assert.ok(files.has(path), `${basename(deb)} lacks ${path}`);
  });

  it('installs with apt, with a valid menu entry that starts the installed binary', () => {
    asRoot(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', resolve(deb)]);
    const status = run('dpkg-query', ['-W', '-f=${Status} ${Version}', pkg]);
    assert.match(status, /^install ok installed /);
    const entry = readFileSync('/usr/share/applications/Reprise.desktop', 'utf8');
    assert.match(entry, /^Name=Reprise$/m);
    assert.match(entry, /^Exec=reprise-desktop$/m);
    assert.match(entry, /^Icon=reprise-desktop$/m);
    assert.match(entry, /^Categories=Development;/m);
    run('desktop-file-validate', ['/usr/share/applications/Reprise.desktop']);
  });

  it('launches from its installed path and shows the Library from the recipes it carries', async () => {
    home = mkdtempSync(join(tmpdir(), 'reprise-installed-'));
    delete process.env.REPRISE_ROOT;
    driver = await startDriver({ cwd: home, env: { REPRISE_DATA_DIR: join(home, 'data'), HOME: home } });
    s = await newSession(driver.base, '/usr/bin/reprise-desktop');
    const card = await s.waitFor('[data-recipe="hello-ceiling"]', { text: /lanes|nothing to run/, timeoutMs: 60000 });
    assert.match(await s.text(card), /Campfire under Falcon: the hello-world ceilings/);
    // The bundle's own recipes, not the checkout this machine built it from.
    assert.equal(await s.text(await s.find('[data-recipes-dir] code')), '/usr/lib/Reprise/recipes');
    const shown = await s.script('return [...document.querySelectorAll("[data-recipe]")].map((e) => e.dataset.recipe)');
    assert.deepEqual([...shown].sort(), recipes.map((r) => r.replace(/\.toml$/, '')).sort());
    // The checksums came along: no recipe reads as modified.
    const page = await s.script('return document.body.innerText');
    assert.doesNotMatch(page, /checksum (modified|not listed|unreadable)/);
  });
});
