/**
 * @skillrl/cli — the `skillrl` command over @skillrl/orchestrator: run, resume, check, eval, export, report,
 * demo, skills, validate-skill, init, worker and schema, with progress, exit statuses and `--json` results.
 */

// The program: run it (`runCli(argv)` returns the exit status), or build it to add commands of your own.
export { type CliIo, createCli, runCli } from './create-cli.js';
export { EXIT_CODES } from './exit-codes.js';

// The offline demo (`skillrl demo`): SKILLC beside its GRPO control, then Skill-R1, on household.
export {
  comparisonLines,
  DEMO_STEPS,
  DEMO_TEMPLATES,
  type DemoOptions,
  type DemoRole,
  type DemoRun,
  type DemoUnit,
  demoConfigs,
  runDemo,
} from './demo/run-demo.js';

// Traces: OpenTelemetry export when OTEL_EXPORTER_OTLP_ENDPOINT is set (the SDK an optional peer, loaded
// only then), as the CLI sets it up for run, resume, eval, demo and worker.
export {
  startTracing,
  TRACED_COMMANDS,
  TRACING_PACKAGES,
  type TracesTarget,
  type Tracing,
  type TracingOptions,
  tracesTarget,
} from './trace/index.js';
