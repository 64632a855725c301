import { useEffect, useRef, useState } from 'preact/hooks';
import type { Backend } from './backend';
import { BackendContext } from './load';
import { href, parseRoute, type Route } from './state';
import { LibraryPage } from './pages/Library';
import { PostPage } from './pages/Post';
import { PreflightPage } from './pages/Preflight';
import { RunPage } from './pages/Run';
import { ResultsPage } from './pages/Results';
import { SharePage } from './pages/Share';
import { MachinePage } from './pages/Machine';
import { OthersPage } from './pages/Others';

const nav: { label: string; route: Route }[] = [
  { label: 'Library', route: { page: 'library' } },
  { label: 'Results', route: { page: 'results' } },
  { label: 'Share', route: { page: 'share' } },
  { label: 'Machine', route: { page: 'machine' } },
];

function section(route: Route): string {
  return route.page === 'post' || route.page === 'preflight' || route.page === 'run' || route.page === 'others' ? 'library' : route.page;
}

export function App({ backend }: { backend: Backend }) {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash));
  const main = useRef<HTMLElement>(null);
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    // Move focus to the new page so keyboard and screen-reader users land on it.
    main.current?.focus({ preventScroll: true });
  }, [route]);
  return (
    <BackendContext.Provider value={backend}>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <a class="brand" href="#/library">Reprise</a>
        <nav aria-label="Sections">
          {nav.map((n) => (
            <a href={href(n.route)} aria-current={section(route) === n.route.page ? 'page' : undefined}>
              {n.label}
            </a>
          ))}
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1} data-page={route.page}>
        <Page route={route} />
      </main>
    </BackendContext.Provider>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'library':
      return <LibraryPage />;
    case 'post':
      return <PostPage id={route.id} />;
    case 'preflight':
      return <PreflightPage id={route.id} />;
    case 'run':
      return <RunPage id={route.id} />;
    case 'others':
      return <OthersPage id={route.id} />;
    case 'results':
      return <ResultsPage run={route.run} />;
    case 'share':
      return <SharePage run={route.run} />;
    case 'machine':
      return <MachinePage />;
  }
}
