import type { RunTemplate } from './run-templates.js';

/** What `create-skillrl adapter|estimator` writes. */
export type ScaffoldKind = 'adapter' | 'estimator';

/**
 * The commands a scaffold's README lists and the CLI prints, in the scaffold's folder, in order. Each runs
 * as printed: the scaffold's package.json lists what they use (@skillrl/cli for `npx skillrl`).
 */
export const SCAFFOLD_STEPS: Readonly<Record<ScaffoldKind, readonly string[]>> = {
  adapter: ['npm install', 'npm test', 'npm run build', 'npx skillrl run run.yaml'],
  estimator: ['npm install', 'npm test', 'npm run build', 'npx skillrl run run.yaml', 'npm run compare'],
};

/** A path as a shell reads it: quoted when it holds anything but the characters paths usually have. */
export function shellPath(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** One line to paste: into the scaffold's folder, then its steps. */
export function scaffoldNextSteps(kind: ScaffoldKind, dir: string): string {
  return [`cd ${shellPath(dir)}`, ...SCAFFOLD_STEPS[kind]].join(' && ');
}

/**
 * One line to paste after `create-skillrl run`: install the CLI (@skillrl/cli, not the batteries
 * `skillrl` package) and what the config names, then check and run it.
 */
export function runNextSteps(template: RunTemplate, file: string): string {
  const path = shellPath(file);
  return [
    `npm install @skillrl/cli ${template.needs.join(' ')}`,
    `npx skillrl check ${path}`,
    `npx skillrl run ${path}`,
  ].join(' && ');
}
