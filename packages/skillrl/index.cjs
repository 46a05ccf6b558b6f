// skillrl re-exports @skillrl/orchestrator (runConfig, evolve, internalize, createCli, ...).
module.exports = require('@skillrl/orchestrator');
