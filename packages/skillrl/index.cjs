// skillrl re-exports @skillrl/orchestrator (runConfig, evolve, internalize, ...), @skillrl/eval (evaluate,
// evaluateRun, testSkills, ...) and @skillrl/cli (runCli, createCli, runDemo, startTracing, ...).
module.exports = {
  ...require('@skillrl/orchestrator'),
  ...require('@skillrl/eval'),
  ...require('@skillrl/cli'),
};
