import { describe, expect, it } from 'vitest';
import { adapterScaffold } from './adapter-scaffold.js';
import { estimatorScaffold } from './estimator-scaffold.js';
import { SCAFFOLD_STEPS, type ScaffoldKind, scaffoldNextSteps, shellPath } from './next-steps.js';
import { SCAFFOLD_DEV_TOOLS, SCAFFOLD_VERSIONS } from './scaffold-versions.js';

const scaffolds: Record<ScaffoldKind, (name: string) => Record<string, string>> = {
  adapter: adapterScaffold,
  estimator: estimatorScaffold,
};

interface Manifest {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
  files: string[];
}

describe('the scaffolds: standalone packages with next steps that run as printed', () => {
  for (const kind of ['adapter', 'estimator'] as const) {
    const files = scaffolds[kind](`my-${kind}`);
    const pkg = JSON.parse(files['package.json'] as string) as Manifest;

    it(`${kind}: depends on @skillrl/core alone, caret ranges of this release, pinned dev tools`, () => {
      expect(pkg.name).toBe(`my-${kind}`);
      expect(pkg.dependencies).toEqual({ '@skillrl/core': SCAFFOLD_VERSIONS.core });
      expect(SCAFFOLD_VERSIONS.core).toMatch(/^\^\d+\.\d+\.\d+/);
      expect(pkg.devDependencies['@skillrl/testkit']).toBe(SCAFFOLD_VERSIONS.testkit);
      for (const [tool, version] of Object.entries(SCAFFOLD_DEV_TOOLS))
        expect(pkg.devDependencies[tool]).toBe(version);
      const everything = Object.values(files).join('\n');
      expect(everything).not.toMatch(/workspace:|\.\.\/\.\.\/|\/work\/|packages\//);
      expect(everything).toContain("from '@skillrl/testkit/vitest'");
      // run.yaml names the package by path: it runs from the package's folder once built.
      expect(files['run.yaml']).toContain('package: "./"');
    });

    it(`${kind}: the package lists what each printed step uses; the README shows the same steps`, () => {
      // `npx skillrl` is @skillrl/cli's (the lean one), never the batteries `skillrl` package.
      expect(pkg.devDependencies['@skillrl/cli']).toBe(SCAFFOLD_VERSIONS.cli);
      expect(pkg.devDependencies.skillrl).toBeUndefined();
      for (const step of SCAFFOLD_STEPS[kind]) {
        const script = /^npm (?:run )?(\w+)$/.exec(step)?.[1];
        if (script && script !== 'install') expect(pkg.scripts[script], step).toBeDefined();
      }
      // What run.yaml names: files beside it, and built-in parts from listed packages.
      for (const [, file] of (files['run.yaml'] as string).matchAll(/package: "\.\/([^"]+)"/g)) {
        expect(files[file as string], file).toBeDefined();
      }
      // `npm run compare` calls the orchestrator's runConfig: listed only where a file imports it.
      const importsOrchestrator = Object.values(files).some((f) =>
        f.includes("from '@skillrl/orchestrator'"),
      );
      expect(pkg.devDependencies['@skillrl/orchestrator']).toBe(
        importsOrchestrator ? SCAFFOLD_VERSIONS.orchestrator : undefined,
      );
      if (/^adapter: household/m.test(files['run.yaml'] as string)) {
        expect(pkg.devDependencies['@skillrl/task-household']).toBe(SCAFFOLD_VERSIONS.taskHousehold);
      }
      const readme = files['README.md'] as string;
      const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
      const lines = block
        .split('\n')
        .map((l) => l.replace(/#.*$/, '').trim())
        .filter(Boolean);
      expect(lines).toEqual([...SCAFFOLD_STEPS[kind]]);
      expect(readme).toContain(`npm create skillrl ${kind}`);
    });
  }

  it('the estimator shows itself against grpo: npm run compare, on an agent that wins some episodes', () => {
    const files = estimatorScaffold('@acme/group-mean');
    const pkg = JSON.parse(files['package.json'] as string) as Manifest;
    expect(pkg.scripts.compare).toBe('node compare.mjs');
    expect(SCAFFOLD_STEPS.estimator.at(-1)).toBe('npm run compare');
    // The random agent never wins household in ten steps (all rewards 0, so all advantages 0).
    expect(files['run.yaml']).toContain('agent: { package: "./noisy-expert.mjs", options: { noise: 0.5 } }');
    expect(files['random-agent.mjs']).toBeUndefined();
    expect(files['noisy-expert.mjs']).toContain(
      "import household, { planActions } from '@skillrl/task-household'",
    );
    expect(files['compare.mjs']).toContain("advantagesWith('grpo', 'grpo')");
    // Scoped names register under the part after the scope.
    expect(files['run.yaml']).toContain('name: group-mean');
    expect(files['src/index.ts']).toContain('"group-mean": createEstimator');
  });

  it('next steps: into the folder, then the steps, a path with spaces quoted', () => {
    expect(scaffoldNextSteps('adapter', 'my-adapter')).toBe(
      'cd my-adapter && npm install && npm test && npm run build && npx skillrl run run.yaml',
    );
    expect(scaffoldNextSteps('estimator', '../a b')).toBe(
      "cd '../a b' && npm install && npm test && npm run build && npx skillrl run run.yaml && npm run compare",
    );
    expect(shellPath("it's")).toBe(`'it'\\''s'`);
  });
});
