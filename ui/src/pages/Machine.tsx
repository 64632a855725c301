import { Loaded, Notice, useLoad } from '../load';

export function MachinePage() {
  const load = useLoad((b) => b.machine(), []);
  return (
    <>
      <h1>This machine</h1>
      <Loaded load={load} what="the machine">
        {(m) => (
          <>
            <dl class="pairs">
              <dt>Operating system</dt><dd data-fact="os">{m.os}</dd>
              <dt>Architecture</dt><dd data-fact="arch">{m.arch}</dd>
              <dt>Logical CPUs</dt><dd data-fact="cpus">{m.logical_cpus}</dd>
            </dl>
            {m.missing.map((x) => <Notice>{x}</Notice>)}
          </>
        )}
      </Loaded>
    </>
  );
}
