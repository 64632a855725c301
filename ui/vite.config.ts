import { defineConfig } from 'vitest/config';

// The desktop app loads dist/ through tauri://localhost; keep paths relative
// and everything local (no CDN, no remote fonts). `--mode test` builds the
// same pages with the scripted backend and its scripts into dist-test/, for
// the browser tests; dist/ (what the app embeds) has none of them.
export default defineConfig(({ mode }) => ({
  base: './',
  define: { __TEST_FIXTURES__: JSON.stringify(mode === 'test') },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: mode === 'test' ? 'dist-test' : 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 600 },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
}));
