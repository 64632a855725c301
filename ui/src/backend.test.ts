import { describe, expect, it } from 'vitest';
import { BackendError, tauriCommands, toBackendError, type ChannelLike } from './backend';


describe('the Tauri backend', () => {
  it('calls each command by its Rust name with its arguments', async () => {
    const calls: [string, unknown][] = [];
    const invoke = async <T,>(cmd: string, args?: Record<string, unknown>) => {
      calls.push([cmd, args]);
      return { ok: cmd } as T;
    };
    const b = tauriCommands(invoke, () => ({ onmessage: () => {} }));
    await b.library();
    await b.post('hello-ceiling');
    await b.results('r1');
    await b.sharePreview('r1');
    expect(calls).toEqual([
      ['library', undefined],
      ['post', { id: 'hello-ceiling' }],
      ['results', { run: 'r1' }],
      ['share_preview', { run: 'r1' }],
    ]);
  });

  it('turns a command error into a BackendError with its hint', async () => {
    const invoke = async () => {
      throw { kind: 'not_found', message: 'no recipe `x`', hint: 'Go back to the Library.' };
    };
    const b = tauriCommands(invoke, () => ({ onmessage: () => {} }));
    const err = await b.post('x').catch((e) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err.kind).toBe('not_found');
    expect(err.hint).toBe('Go back to the Library.');
  });

  it('wraps a bare IPC failure with what to do', () => {
    const err = toBackendError('window closed');
    expect(err.kind).toBe('ipc');
    expect(err.message).toBe('window closed');
    expect(err.hint).toMatch(/restart/);
  });

  it('hands stream batches from the channel to the page', async () => {
    let channel: ChannelLike<unknown> | null = null;
    const invoke = async <T,>(_cmd: string, args?: Record<string, unknown>) => {
      channel = args!.onEvent as ChannelLike<unknown>;
      channel.onmessage([{ type: 'event', event: { event: 'note', message: 'started' } }]);
      return { events: 1, batches: 1 } as T;
    };
    const seen: unknown[] = [];
    const b = tauriCommands(invoke, () => ({ onmessage: () => {} }));
    const summary = await b.benchStream(10, true, (batch) => seen.push(batch));
    expect(summary).toEqual({ events: 1, batches: 1 });
    expect(seen).toEqual([[{ type: 'event', event: { event: 'note', message: 'started' } }]]);
  });

  it('validates the machine through validate_machine, its progress lines from the channel', async () => {
    const calls: [string, unknown][] = [];
    const invoke = async <T,>(cmd: string, args?: Record<string, unknown>) => {
      calls.push([cmd, { quick: args!.quick }]);
      (args!.onEvent as ChannelLike<string>).onmessage('ceiling: 3 runs');
      return { fitness: 'ready' } as T;
    };
    const lines: string[] = [];
    const b = tauriCommands(invoke, () => ({ onmessage: () => {} }));
    const v = await b.validateMachine(true, (line) => lines.push(line));
    expect(v.fitness).toBe('ready');
    expect(calls).toEqual([['validate_machine', { quick: true }]]);
    expect(lines).toEqual(['ceiling: 3 runs']);
  });
});
