import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry per subpath, so `@skillrl/skill-generator/llm-editor` loads no tfjs; `.` is all of them.
  entry: {
    index: 'src/index.ts',
    'llm-editor': 'src/entries/llm-editor.ts',
    'step-editor': 'src/entries/step-editor.ts',
    history: 'src/entries/history.ts',
    generation: 'src/entries/generation.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
