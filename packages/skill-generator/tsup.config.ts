import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry per subpath. Only step-editor imports tfjs; `.` (generation, history, llm-editor) does not, and
  // shared chunks hold only what a tfjs-free entry also needs, so no chunk the root reaches imports tfjs.
  entry: {
    index: 'src/index.ts',
    'llm-editor': 'src/entries/llm-editor.ts',
    'step-editor': 'src/entries/step-editor.ts',
    history: 'src/entries/history.ts',
    generation: 'src/entries/generation.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
  sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
  clean: true,
  target: 'node20',
});
