import { resolve } from 'node:path';
import { exampleKit } from '@skillrl/example-kit';

export * from '@skillrl/example-kit';

/** The shared example helpers, bound to this example's folder (configs here, test runs in its `runs/test/`). */
export const { EXAMPLE, TEST_RUNS, cleanTestRuns, exampleConfig, writeTestConfig } = exampleKit(
  resolve(__dirname, '..'),
);
