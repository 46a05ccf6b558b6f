// Runs an example config against the testkit's fake Tinker server (and, for Skill-R1, its fake
// OpenAI-compatible task model): starts them, points the config's baseURLs at them, runs `skillrl run`.
//   node start.mjs skillc.yaml [--run-dir <dir>]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '@skillrl/cli';
import { loadConfig } from '@skillrl/orchestrator';
import { startFakeTinker } from '@skillrl/testkit';

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(here, process.argv[2] ?? 'skillc.yaml');
const config = structuredClone(loadConfig(file).config);
const tinker = await startFakeTinker({ seed: config.seed });
config.agent.options.baseURL = tinker.url;
const out = join(here, 'runs', 'fake');
mkdirSync(out, { recursive: true });
const path = join(out, `${config.name}.json`);
// A relative path in the copy (the tokenizer) is read from the config's folder.
config.agent.options.tokenizer = resolve(here, config.agent.options.tokenizer);
writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
console.log(`fake Tinker server at ${tinker.url} (the tests ran against this fake, never the live service)`);
const code = await runCli(['run', path, '--run-dir', join(out, config.name), ...process.argv.slice(3)]);
const runs = tinker.trainingRuns();
console.log(`training runs: ${runs.map((r) => `${r.id} (${r.updates.length} updates)`).join(', ')}`);
await tinker.close();
process.exit(code);
