import { defineConfig } from 'vitest/config';

// The desktop app loads dist/ through tauri://localhost; keep paths relative
// and everything local (no CDN, no remote fonts).
export default defineConfig({
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 600 },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
