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
