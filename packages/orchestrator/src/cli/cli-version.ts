import { SCAFFOLD_VERSIONS } from '../init/scaffold-versions.js';

/** The CLI's version: the orchestrator package's, put in at build time. */
export const CLI_VERSION = SCAFFOLD_VERSIONS.orchestrator.replace(/^\^/, '');
