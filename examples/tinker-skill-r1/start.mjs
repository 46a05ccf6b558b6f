// Runs an example config against the testkit's fakes: the fake Tinker server (the editor trains there) and the
// fake OpenAI-compatible frozen task model (frozen-reader.mjs); points the config's baseURLs at them, runs
// `skillrl run`.   node start.mjs skill-r1.yaml [--run-dir <dir>]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '@skillrl/cli';
import { loadConfig } from '@skillrl/orchestrator';
import { startFakeOpenAI, startFakeTinker } from '@skillrl/testkit';
import { respond } from './frozen-reader.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(here, process.argv[2] ?? 'skill-r1.yaml');
const config = structuredClone(loadConfig(file).config);
const tinker = await startFakeTinker({ seed: config.seed });
const taskModel = await startFakeOpenAI({ respond, record: false });
const trainer = config.evolve.generator.options.trainer.options;
trainer.baseURL = tinker.url;
trainer.tokenizer = resolve(here, trainer.tokenizer);
config.agent.options.baseURL = taskModel.baseURL;
const out = join(here, 'runs', 'fake');
mkdirSync(out, { recursive: true });
const path = join(out, `${config.name}.json`);
writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
console.log(
  `fake Tinker server at ${tinker.url}, fake task model at ${taskModel.baseURL} (never the live services)`,
);
const code = await runCli(['run', path, '--run-dir', join(out, config.name), ...process.argv.slice(3)]);
console.log(
  `training runs: ${tinker
    .trainingRuns()
    .map((r) => `${r.id} (${r.updates.length} updates)`)
    .join(', ')}`,
);
await Promise.all([tinker.close(), taskModel.close()]);
process.exit(code);
