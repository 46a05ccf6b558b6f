declare const __SKILLRL_CLI_VERSION__: string | undefined;

/** The CLI's version: this package's, put in at build time. */
export const CLI_VERSION = typeof __SKILLRL_CLI_VERSION__ === 'undefined' ? '0.1.0' : __SKILLRL_CLI_VERSION__;
