import { SCAFFOLD_DEV_TOOLS, SCAFFOLD_VERSIONS } from './scaffold-versions.js';
import { json } from './write-scaffold.js';

/**
 * What every scaffolded plugin package shares: an ESM + CommonJS + types build with tsup (the build
 * skillrl's own packages use; the orchestrator loads the ESM one), tests with vitest, and `@skillrl/core`
 * as its one runtime dependency.
 */
export function packageFiles(
  name: string,
  description: string,
  keywords: string[],
  /** Dev dependencies its tests and printed steps need besides the testkit (and what those need). */
  extraDev: Record<string, string> = {},
  /** Scripts besides build, typecheck, test and prepublishOnly (the estimator's `compare`). */
  extraScripts: Record<string, string> = {},
): Record<string, string> {
  const entry = (n: string) => ({
    import: { types: `./dist/${n}.d.ts`, default: `./dist/${n}.js` },
    require: { types: `./dist/${n}.d.cts`, default: `./dist/${n}.cjs` },
  });
  return {
    'package.json': json({
      name,
      version: '0.1.0',
      description,
      keywords: ['skillrl', ...keywords],
      license: 'MIT',
      type: 'module',
      sideEffects: false,
      main: './dist/index.cjs',
      module: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': entry('index'), './package.json': './package.json' },
      files: ['dist', 'README.md'],
      engines: { node: '>=20.19' },
      scripts: {
        build: 'tsup',
        typecheck: 'tsc --noEmit',
        test: 'vitest run',
        prepublishOnly: 'npm run build && npm test',
        ...extraScripts,
      },
      dependencies: { '@skillrl/core': SCAFFOLD_VERSIONS.core },
      devDependencies: { '@skillrl/testkit': SCAFFOLD_VERSIONS.testkit, ...extraDev, ...SCAFFOLD_DEV_TOOLS },
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        isolatedModules: true,
        skipLibCheck: true,
        declaration: true,
        outDir: 'dist',
      },
      include: ['src', '*.config.ts'],
    }),
    'tsup.config.ts': `import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
`,
    'vitest.config.ts': `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
`,
    '.gitignore': 'node_modules/\ndist/\nruns/\n',
  };
}
