import { defineConfig, type Options } from 'tsup';

const common: Options = {
  entry: ['src/index.ts'],
  dts: true,
  // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
  sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
  target: 'node20',
};

export default defineConfig([
  { ...common, format: ['esm'], clean: false },
  {
    ...common,
    format: ['cjs'],
    clean: false,
    // The declarations are the ESM build's: the package's build script copies index.d.ts to index.d.cts (the
    // two are the same text), rather than a second TypeScript pass.
    dts: false,
    // p-limit (and its yocto-queue) ship ESM only: `require()` of them gives a namespace whose default is not
    // the function, so the CommonJS build carries its own copy (about 7 kB) and the ESM build imports them.
    noExternal: ['p-limit', 'yocto-queue'],
  },
]);
