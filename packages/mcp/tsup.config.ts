import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The server reports this package's version in `initialize` (serverInfo.version).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
  sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
  clean: true,
  target: 'node20',
  define: { __SKILLRL_MCP_VERSION__: JSON.stringify(version) },
});
