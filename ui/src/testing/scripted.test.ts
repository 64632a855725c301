import { describe, expect, it } from 'vitest';
import { scriptedBackend } from './scripted';
import { scripts } from './scripts';

describe('the scripted backend', () => {
  it('answers from its script and fails where the script says', async () => {
    const ok = scriptedBackend(scripts.default);
    expect((await ok.library()).recipes.map((card) => card.post.id)).toContain('hello-ceiling');
    const bad = scriptedBackend(scripts.error);
    const err = await bad.library().catch((e) => e);
    expect(err.hint).toMatch(/REPRISE_ROOT/);
  });

  it('says what the script lacks instead of inventing data', async () => {
    const err = await scriptedBackend(scripts.empty).post('nope').catch((e) => e);
    expect(err.message).toBe('the script has no post nope');
  });

  it('delivers its stream in order and counts the batches', async () => {
    const seen: number[] = [];
    const n = await scriptedBackend(scripts.default).benchStream(0, true, (b) => seen.push(b.length));
    expect(n.batches).toBe(seen.length);
    expect(n.batches).toBe(41);
    // 40 merged progress messages of 3,750, 40 log lines with 3·i dropped, one step event.
    expect(n.events).toBe(40 * 3750 + 40 + 3 * 820 + 1);
  });
});
