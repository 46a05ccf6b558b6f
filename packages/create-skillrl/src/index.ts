/**
 * create-skillrl — `npm create skillrl`: a task-adapter or advantage-estimator package that depends on
 * `@skillrl/core` alone and tests itself with `@skillrl/testkit`, or one of the shipped run configs.
 * `skillrl init` is this package's CLI under another name.
 */

// The CLI, to run in-process (`skillrl init` does) or from the `create-skillrl` bin.
export {
  type CreateCliOptions,
  type CreateIo,
  createSkillrlProgram,
  runCreateSkillrl,
} from './create-cli.js';
// Running a commander program to an exit status: this CLI's and `skillrl`'s one home for it.
export { CliExit, runProgram } from './run-program.js';

// Writing a package or a run config, as the CLI does, with the next steps it prints.
export {
  type CreatedPackage,
  type CreatedRunConfig,
  type CreatePackageOptions,
  createPackage,
  createRunConfig,
} from './create-scaffold.js';
export {
  runNextSteps,
  SCAFFOLD_STEPS,
  type ScaffoldKind,
  scaffoldNextSteps,
  shellPath,
} from './next-steps.js';

// The scaffolds as file maps (path → text), and writing one.
export { adapterScaffold } from './adapter-scaffold.js';
export { BUILTIN_ESTIMATOR_NAMES } from './builtin-estimator-names.js';
export { estimatorScaffold } from './estimator-scaffold.js';
export { packageNameFor, writeScaffold } from './write-scaffold.js';

// The shipped run configs (`templates/`): the list, their files, writing one.
export {
  findTemplate,
  RUN_TEMPLATES,
  type RunTemplate,
  readRunTemplate,
  templatePath,
  templatesDir,
  writeRunTemplate,
} from './run-templates.js';

// What scaffolds depend on: this release's @skillrl packages as caret ranges, the pinned dev tools.
export { CREATE_SKILLRL_VERSION, SCAFFOLD_DEV_TOOLS, SCAFFOLD_VERSIONS } from './scaffold-versions.js';

// The one error class: the argument, what is wrong, the fix (recognised as core's InvalidArgumentError).
export { ScaffoldError } from './scaffold-error.js';
