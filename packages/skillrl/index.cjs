// skillrl re-exports @skillrl/orchestrator (runConfig, evolve, internalize, ...) and @skillrl/cli (runCli,
// createCli, runDemo, startTracing, ...).
module.exports = { ...require('@skillrl/orchestrator'), ...require('@skillrl/cli') };
