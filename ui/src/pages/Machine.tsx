import { Loaded, Notice, useLoad } from '../load';

export function MachinePage() {
  const load = useLoad((b) => b.machine(), []);
  return (
    <>
      <h1>This machine</h1>
      <p class="lede">What the probe reads from this machine: the fingerprint every run’s report carries.</p>
      <Loaded load={load} what="the machine">
        {(m) => (
          <>
            <dl class="pairs facts-list">
              {m.facts.map((f) => (
                <>
                  <dt>{f.name}</dt>
                  <dd data-fact={f.name}>{f.value}</dd>
                </>
              ))}
            </dl>
            {m.missing.map((x) => <Notice>{x}</Notice>)}
          </>
        )}
      </Loaded>
    </>
  );
}
