import { fileURLToPath } from 'node:url';
import { ValidationError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import {
  checkGaiaAdapterOptions,
  checkJsonlAdapterOptions,
  checkQaAdapterOptions,
  checkWebWalkerAdapterOptions,
  createGaiaAdapter,
  createJsonlAdapter,
  createQaAdapter,
  createWebWalkerAdapter,
  GAIA_ADAPTER_OPTIONS,
  JSONL_ADAPTER_OPTIONS,
  QA_ADAPTER_OPTIONS,
  WEBWALKER_ADAPTER_OPTIONS,
} from '../src/index.js';

const fixture = (path: string) => fileURLToPath(new URL(`../test-fixtures/${path}`, import.meta.url));
const quiet = () => {};
const paths = (issues: { path: string }[]) => issues.map((i) => i.path);

describe('each adapter checks its own options', () => {
  it('an unknown option, with the one meant', () => {
    expect(checkQaAdapterOptions({ familes: ['arithmetic'] })).toEqual([
      {
        path: '$.adapter.options.familes',
        message: 'unknown option of the qa adapter; did you mean families?',
      },
    ]);
    expect(checkGaiaAdapterOptions({ path: 'm.jsonl', tools: { maxCall: 3 } })).toEqual([
      {
        path: '$.adapter.options.tools.maxCall',
        message: 'unknown option of the GAIA tools; did you mean maxCalls?',
      },
    ]);
    expect(checkWebWalkerAdapterOptions({ path: 'w.jsonl', judge: { model: 'gpt-4o' } })[0]?.path).toBe(
      '$.adapter.options.judge',
    );
    expect(checkJsonlAdapterOptions({ path: 'q.jsonl', field: { question: 'q' } })).toEqual([
      {
        path: '$.adapter.options.field',
        message: 'unknown option of the qa-jsonl adapter; did you mean fields?',
      },
    ]);
  });

  it('wrong types and a missing path, each by path', () => {
    expect(checkQaAdapterOptions({ families: 'arithmetic', sizes: { train: -1 } })).toEqual([
      {
        path: '$.adapter.options.families',
        message: 'expected a list of non-empty strings, got "arithmetic"',
      },
      { path: '$.adapter.options.sizes.train', message: 'expected an integer >= 0, got -1' },
    ]);
    expect(paths(checkGaiaAdapterOptions({ instructions: 'yes', tools: { maxCalls: 1.5 } }))).toEqual([
      '$.adapter.options.instructions',
      '$.adapter.options.tools.maxCalls',
      '$.adapter.options.path',
    ]);
    expect(paths(checkWebWalkerAdapterOptions({ path: { main: 3 }, verifier: { f1Threshold: 2 } }))).toEqual([
      '$.adapter.options.path.main',
      '$.adapter.options.verifier.f1Threshold',
    ]);
    expect(checkJsonlAdapterOptions({}, 'options')).toEqual([
      {
        path: 'options.path',
        message: 'is required: a JSONL file of questions and answers, or a map of split → file',
      },
    ]);
    expect(checkJsonlAdapterOptions({ path: 'q.jsonl', verifier: 'gaia' })[0]?.message).toBe(
      'expected a function of the task returning a verifier (given in code; a config file cannot hold one), got "gaia"',
    );
  });

  it('a valid full set passes; the vocabularies are what the factories read', () => {
    expect(
      checkQaAdapterOptions({
        families: ['arithmetic'],
        sizes: { train: 10, valid_seen: 2, valid_unseen: 2 },
      }),
    ).toEqual([]);
    const gaia = {
      path: { validation: 'v/metadata.jsonl' },
      instructions: false,
      strict: false,
      verifier: { name: 'gaia', requireTemplate: true },
      tools: {
        files: { maxChars: 100, maxBytes: 1000 },
        web: { backend: 'page-cache', path: 'p.jsonl' },
        maxCalls: 6,
        maxChars: 500,
        results: 3,
      },
    };
    expect(checkGaiaAdapterOptions(gaia)).toEqual([]);
    expect(checkGaiaAdapterOptions({ path: 'm.jsonl', tools: false })).toEqual([]);
    const webwalker = {
      path: 'main.jsonl',
      pages: 'pages.jsonl',
      maxCalls: 10,
      maxChars: 2000,
      startPage: false,
      verifier: {
        judge: { model: 'gpt-4o', baseURL: 'http://127.0.0.1:8000/v1', timeoutMs: 1000, maxTokens: 512 },
        f1Threshold: 0.5,
      },
    };
    expect(checkWebWalkerAdapterOptions(webwalker)).toEqual([]);
    const jsonl = {
      path: 'q.jsonl',
      fields: { id: 'qid', question: ['question', 'Question'], answer: 'gold', metadata: { level: 'Level' } },
      name: 'mine',
      split: 'test',
      family: 'qa',
      unlabeled: ['?'],
      instructions: 'Answer in one word.',
    };
    expect(checkJsonlAdapterOptions(jsonl)).toEqual([]);
    expect(QA_ADAPTER_OPTIONS).toEqual(['families', 'sizes']);
    expect(GAIA_ADAPTER_OPTIONS).toEqual(expect.arrayContaining(Object.keys(gaia)));
    expect(WEBWALKER_ADAPTER_OPTIONS).toEqual(expect.arrayContaining(Object.keys(webwalker)));
    expect(JSONL_ADAPTER_OPTIONS).toEqual(expect.arrayContaining(Object.keys(jsonl)));
  });

  it('the factories refuse what the checks refuse, with a ValidationError', () => {
    const refused = (build: () => unknown) => {
      try {
        build();
      } catch (e) {
        return ValidationError.isInstance(e) ? paths(e.issues) : e;
      }
      return 'built';
    };
    expect(refused(() => createQaAdapter({ familes: ['arithmetic'] } as never))).toEqual(['options.familes']);
    expect(
      refused(() =>
        createGaiaAdapter({
          path: fixture('gaia/2023/validation/metadata.jsonl'),
          tool: {},
          onProblems: quiet,
        } as never),
      ),
    ).toEqual(['options.tool']);
    expect(
      refused(() =>
        createWebWalkerAdapter({
          path: fixture('webwalker/main.jsonl'),
          maxCall: 3,
          onProblems: quiet,
        } as never),
      ),
    ).toEqual(['options.maxCall']);
    expect(
      refused(() => createJsonlAdapter({ path: fixture('jsonl/custom.jsonl'), feilds: {} } as never)),
    ).toEqual(['options.feilds']);
  });
});
