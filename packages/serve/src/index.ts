/**
 * @skillrl/serve — `skillrl serve`: a live local web app over run directories (runs, one run's charts,
 * comparisons, the skill bank, trajectories), read from the run store's own streams as the runs write them.
 */

// Start the server (what `skillrl serve` calls), and the line it prints.
export { type ServeHandle, type StartServeOptions, startServe } from './server/start-serve.js';
export { isLoopbackHost, serveCommandLine, serveUrl } from './server/serve-address.js';
// The app without a socket (for tests, or to mount under another Hono server), and its security headers.
export { createServeApp, type ServeApp, type ServeAppOptions } from './server/create-serve-app.js';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './server/security-headers.js';
// Typed errors: a non-loopback host without a token; a path outside the served folder.
export { HostNeedsTokenError, OutsideDirError } from './errors/index.js';
// What the API returns, for clients of their own.
export type { RunSummary, RunStateName } from './views/run-summary.js';
export type { RunDetail, RunHealth } from './views/run-detail.js';
export type { Comparison, PairedComparison } from './views/compare-runs.js';
export type { TrajectoryView, TimelineStep } from './views/trajectory-view.js';
export type { ChartSpec, ChartSeries, ChartMarker } from './views/chart-spec.js';
export type { RolloutRow, RolloutFilter, RolloutPage } from './store/rollout-table.js';
export type { SkillVersionRow, SkillVersionDetail } from './store/skill-bank.js';
