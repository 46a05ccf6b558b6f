import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The CLI is found from the module's own path (`import.meta.url`, shimmed in CommonJS).
  shims: true,
});
