export * from './analyze.js';
export * from './bm25-index.js';
