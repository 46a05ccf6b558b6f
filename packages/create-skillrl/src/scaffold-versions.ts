/**
 * The versions a scaffold depends on: caret ranges on the @skillrl packages of this release (put in at build
 * time from their package.json, so a scaffold never names a workspace range or a path into the repository),
 * and the dev tools skillrl itself is tested with, exact.
 */
declare const __SKILLRL_SCAFFOLD_VERSIONS__:
  | {
      core: string;
      testkit: string;
      rollout: string;
      orchestrator: string;
      cli: string;
      taskHousehold: string;
      createSkillrl: string;
    }
  | undefined;

const built =
  typeof __SKILLRL_SCAFFOLD_VERSIONS__ === 'undefined' ? undefined : __SKILLRL_SCAFFOLD_VERSIONS__;

export const SCAFFOLD_VERSIONS = {
  core: `^${built?.core ?? '0.1.0'}`,
  testkit: `^${built?.testkit ?? '0.1.0'}`,
  rollout: `^${built?.rollout ?? '0.1.0'}`,
  orchestrator: `^${built?.orchestrator ?? '0.1.0'}`,
  cli: `^${built?.cli ?? '0.1.0'}`,
  taskHousehold: `^${built?.taskHousehold ?? '0.1.0'}`,
};

/** This package's own version (`create-skillrl --version`). */
export const CREATE_SKILLRL_VERSION = built?.createSkillrl ?? '0.1.0';

/** Dev tools, pinned as skillrl pins them (TOOLCHAIN: vite 8.4 pulls a package some registries lack). */
export const SCAFFOLD_DEV_TOOLS = {
  '@types/node': '20.19.9',
  tsup: '8.5.1',
  typescript: '5.9.3',
  vite: '8.3.8',
  vitest: '4.1.12',
};
