import { fileURLToPath } from 'node:url';
import { describeAdapterConformance } from '@skillrl/testkit/vitest';
import qaAdapter, { createGaiaAdapter, createJsonlAdapter, createWebWalkerAdapter } from '../src/index.js';

const fixture = (path: string) => fileURLToPath(new URL(`../test-fixtures/${path}`, import.meta.url));
const quiet = () => {};

describeAdapterConformance(qaAdapter);

describeAdapterConformance(
  createJsonlAdapter({
    path: fixture('jsonl/custom.jsonl'),
    fields: { id: 'qid', question: 'prompt.text', answer: 'gold', family: 'topic', split: 'part' },
    onProblems: quiet,
  }),
  { seedChangesTasks: false, limit: 2 },
);

describeAdapterConformance(
  createGaiaAdapter({
    path: {
      validation: fixture('gaia/2023/validation/metadata.jsonl'),
      test: fixture('gaia/2023/test/metadata.jsonl'),
    },
    onProblems: quiet,
  }),
  { seedChangesTasks: false, limit: 2 },
);

describeAdapterConformance(
  createWebWalkerAdapter({ path: fixture('webwalker/main.jsonl'), onProblems: quiet }),
  {
    seedChangesTasks: false,
    limit: 3,
  },
);

// With their tools: the environments still end on the answer, within the larger step limit.
describeAdapterConformance(
  createGaiaAdapter({
    path: fixture('gaia-tools/validation/metadata.jsonl'),
    tools: { web: { backend: 'page-cache', path: '../pages.jsonl' } },
    onProblems: quiet,
  }),
  { seedChangesTasks: false, limit: 2 },
);

describeAdapterConformance(
  createWebWalkerAdapter({
    path: fixture('webwalker-tools/main.jsonl'),
    pages: 'pages.jsonl',
    onProblems: quiet,
  }),
  { seedChangesTasks: false, limit: 2 },
);
