import { readFileSync } from 'node:fs';

// The @skillrl versions scaffolds depend on (caret ranges on this release's packages), read from their
// package.json at build time (tsup.config.ts) and in tests (vitest.config.ts).
const version = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;

export const scaffoldVersionsDefine = {
  __SKILLRL_SCAFFOLD_VERSIONS__: JSON.stringify({
    core: version('../core/package.json'),
    testkit: version('../testkit/package.json'),
    rollout: version('../rollout/package.json'),
    orchestrator: version('../orchestrator/package.json'),
    cli: version('../cli/package.json'),
    taskHousehold: version('../task-household/package.json'),
    createSkillrl: version('package.json'),
  }),
};
