// skillrl re-exports @skillrl/orchestrator (runConfig, evolve, internalize, createCli, ...); the parts are
// their own packages (@skillrl/core, @skillrl/advantage, ...), installed with this one.
export * from '@skillrl/orchestrator';
