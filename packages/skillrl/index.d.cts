export * from '@skillrl/orchestrator';
