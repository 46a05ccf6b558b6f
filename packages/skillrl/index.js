// skillrl re-exports @skillrl/orchestrator (runConfig, evolve, internalize, ...), @skillrl/eval (evaluate,
// evaluateRun, testSkills, ...) and @skillrl/cli (runCli, createCli, runDemo, startTracing, ...); the parts are
// their own packages (@skillrl/core, @skillrl/advantage, ...), installed with this one.
export * from '@skillrl/cli';
export * from '@skillrl/eval';
export * from '@skillrl/orchestrator';
