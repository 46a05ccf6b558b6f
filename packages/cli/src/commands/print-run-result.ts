import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '@skillrl/orchestrator';
import { writeReport } from '@skillrl/report';
import type { CliIo } from '../cli-io.js';
import { formatTable } from '../format-table.js';

/** A run as `run` and `resume` print it: its report, then a line per metric (or one JSON line). */
export function printRunResult(io: CliIo, json: boolean, result: RunResult): void {
  // Every finished run gets its report.html (`skillrl report` rebuilds it); resuming a finished run writes
  // nothing, not even the report.
  const existing = join(result.dir, 'report.html');
  const report = result.alreadyCompleted && existsSync(existing) ? existing : writeReport(result.dir).path;
  if (json) {
    io.out(JSON.stringify({ ok: true, ...result, report }));
    return;
  }
  io.out(
    result.alreadyCompleted
      ? `run ${result.runId} had already completed: ${result.dir} (nothing was run or written)`
      : `run ${result.runId} completed: ${result.dir}`,
  );
  io.out(`report: ${report}`);
  io.out(`rollouts run ${result.ran}, reused from disk ${result.reused}`);
  const rows = Object.entries(result.metrics).map(([k, v]) => [
    k,
    Number.isInteger(v) ? String(v) : v.toFixed(4),
  ]);
  io.out(formatTable(['metric', 'value'], rows));
  if (result.metrics.policy_frozen === 1) {
    io.out(
      'no policy update happened: the trainer reports it does not update the policy in process; every validation, λ/ρ and retirement was decided against the frozen starting policy. Train elsewhere from `skillrl export <run-dir> --format trl|verl`.',
    );
  }
}
