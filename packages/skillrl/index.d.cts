export * from '@skillrl/cli';
export * from '@skillrl/orchestrator';
