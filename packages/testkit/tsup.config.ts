import { defineConfig } from 'tsup';

export default defineConfig({
  // `.` loads without vitest; `./vitest` holds the suites (vitest is an optional peer, kept external).
  entry: { index: 'src/index.ts', vitest: 'src/vitest.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
  sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
  clean: true,
  target: 'node20',
  // The tiny-chat fixture is found from the module's own path (`import.meta.url`, shimmed in CommonJS).
  shims: true,
});
