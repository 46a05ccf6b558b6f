export { adapterScaffold } from './adapter-scaffold.js';
export { estimatorScaffold } from './estimator-scaffold.js';
export { findTemplate, RUN_TEMPLATES, type RunTemplate, writeRunTemplate } from './run-templates.js';
export { SCAFFOLD_DEV_TOOLS, SCAFFOLD_VERSIONS } from './scaffold-versions.js';
export { packageNameFor, writeScaffold } from './write-scaffold.js';
