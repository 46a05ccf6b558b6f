#!/usr/bin/env node
// Runs a bring-your-own-agent example's run.yaml against the testkit's fake OpenAI server instead of a real
// model: starts the fake with the responder for the config's adapter (fake-responders.mjs), writes a copy of
// the config whose upstream is the fake (and whose `node` is Node 24 when SKILLRL_NODE24 names one), and runs
// the skillrl CLI on it. For development and tests in this repository (it imports the built packages); build
// them first: pnpm build --filter @skillrl/orchestrator... --filter @skillrl/testkit
//
//   node examples/byo-shared/with-fake.mjs examples/byo-python/run.yaml
//   node examples/byo-shared/with-fake.mjs examples/byo-ai-sdk/run.yaml eval --skill-aware
//   node examples/byo-shared/with-fake.mjs <run.yaml> [run|eval|check] [--skill-aware] [--keep] [-- <CLI args>]
//
// The copy lives in a temporary folder, with the example's folder as the program's cwd and data paths made
// absolute; its run directory is inside that folder (removed at the end unless --keep) unless
// `-- --run-dir <dir>` says otherwise. The fake's
// request count is printed at the end; the CLI's exit code is this script's.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { editorResponder, householdResponder, isEditorRequest, qaResponder } from './fake-responders.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const dashdash = args.indexOf('--');
const own = dashdash < 0 ? args : args.slice(0, dashdash);
const extra = dashdash < 0 ? [] : args.slice(dashdash + 1);
const configArg = own.find((a) => !a.startsWith('--') && /\.(ya?ml|json)$/.test(a));
const command = own.find((a) => ['run', 'eval', 'check'].includes(a)) ?? 'run';
const skillAware = own.includes('--skill-aware');
if (!configArg) {
  process.stderr.write(
    'usage: node with-fake.mjs <run.yaml> [run|eval|check] [--skill-aware] [--keep] [-- <CLI args>]\n',
  );
  process.exit(2);
}

const configPath = resolve(configArg);
const exampleDir = dirname(configPath);
const requireFromOrchestrator = createRequire(join(root, 'packages/orchestrator/package.json'));
const YAML = requireFromOrchestrator('yaml');
const { startFakeOpenAI } = await import(pathToFileURL(join(root, 'packages/testkit/dist/index.js')).href);

const config = YAML.parse(readFileSync(configPath, 'utf8'));
const adapterName = typeof config.adapter === 'string' ? config.adapter : config.adapter?.name;
const respond = adapterName === 'household' ? householdResponder({ skillAware }) : qaResponder();
// Skill-R1 with the LLM editor: the editor's requests go to the same fake, answered by the fake editor.
const generator = config.evolve?.generator;
const editsWithLlm = generator?.name === 'llm-editor' && typeof generator.options?.model === 'object';
const editor = editorResponder();
const fake = await startFakeOpenAI({
  respond: (request, ctx) =>
    editsWithLlm && isEditorRequest(request) ? editor(request) : respond(request, ctx),
});

const program = config.agent?.program;
if (!program) throw new Error(`${configPath}: expected agent: { program: {...} }`);
const nodeBinary = process.env.SKILLRL_NODE24 || process.execPath;
const apiKeyEnv = program.upstream?.apiKeyEnv ?? 'OPENAI_API_KEY';
const fakeConfig = {
  ...config,
  adapter:
    typeof config.adapter === 'object' && typeof config.adapter.options?.path === 'string'
      ? {
          ...config.adapter,
          options: { ...config.adapter.options, path: absolute(config.adapter.options.path) },
        }
      : config.adapter,
  ...(config.evolve
    ? {
        evolve: {
          ...config.evolve,
          // A starting skill folder is read from the config's folder: made absolute for the copy.
          ...(typeof config.evolve.initialSkill?.path === 'string'
            ? { initialSkill: { path: absolute(config.evolve.initialSkill.path) } }
            : {}),
          ...(editsWithLlm
            ? {
                generator: {
                  ...generator,
                  options: {
                    ...generator.options,
                    model: { ...generator.options.model, baseURL: fake.baseURL },
                  },
                },
              }
            : {}),
        },
      }
    : {}),
  agent: {
    program: {
      ...program,
      command: program.command.map((c, i) => (i === 0 && c === 'node' ? nodeBinary : c)),
      cwd: program.cwd ? absolute(program.cwd) : exampleDir,
      upstream: { ...program.upstream, baseURL: fake.baseURL },
    },
  },
};

function absolute(p) {
  return isAbsolute(p) ? p : resolve(exampleDir, p);
}

const dir = mkdtempSync(join(tmpdir(), 'skillrl-byo-'));
const fakeConfigPath = join(dir, 'run.json');
writeFileSync(fakeConfigPath, `${JSON.stringify(fakeConfig, null, 2)}\n`);
const cli = join(root, 'packages/cli/dist/cli.js');
const child = spawn(process.execPath, [cli, command, fakeConfigPath, ...extra], {
  stdio: 'inherit',
  env: { ...process.env, [apiKeyEnv]: process.env[apiKeyEnv] || 'sk-fake-upstream-key' },
});
const code = await new Promise((done) => child.on('close', (c, signal) => done(c ?? (signal ? 1 : 0))));
process.stderr.write(
  `with-fake: the fake model answered ${fake.stats().completed} requests (${command} ${fakeConfigPath})\n`,
);
await fake.close();
if (!extra.includes('--run-dir') && !own.includes('--keep')) rmSync(dir, { recursive: true, force: true });
process.exit(code);
