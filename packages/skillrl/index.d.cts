export * from '@skillrl/cli';
export * from '@skillrl/eval';
export * from '@skillrl/orchestrator';
