// The packages as a user gets them: packs every publishable package with `pnpm pack`, installs the tarballs
// with npm into fresh folders outside the repository, and proves that they work there:
//   - every tarball holds what its package.json `files` lists (LICENSE, CHANGELOG.md, ...), no `workspace:`
//     range, and a README without links into the repository;
//   - @skillrl/cli (the `skillrl` bin) with only its own @skillrl dependencies, the orchestrator and eval among them,
//     installs no @tensorflow package, and an LLM-only Skill-R1 run (household, the LLM agent and editor, against the testkit's fake server) works
//     with no tfjs installed, and so does an LLM-only SKILLC run asking for token ids, exported as verl rows;
//   - on that lean install (with task-qa, task-shop, verifiers and skill-generator added), every lean package's
//     root (and skill-generator's ./llm-editor) loads with require() and import(), and each lean package's
//     first README example that needs no tfjs runs as printed (TypeScript ones compiled by tsc with
//     `skipLibCheck: false`, as every TypeScript check here, so the shipped declarations are checked), the LLM
//     editor's against the testkit's fake server;
//   - @skillrl/verifiers alone (no openai): exact match verifies, the judge says what to install, and its
//     declarations compile without openai;
//   - every package loads with require() and with import(), and tfjs prints no banner;
//   - examples/custom-adapter, packed and installed, loads by its default export and scores above zero under
//     `skillrl eval`; an ESM-only estimator package is found by a run config; a tfjs run works;
//   - `npm create skillrl adapter|estimator` from the packed create-skillrl writes packages whose printed next
//     steps run as printed (`npm install` from the tarballs): their tests (the conformance kits, the adapter's
//     with `solve`), the build, `npx skillrl run run.yaml` with their own CLI, the estimator's `npm run compare`
//     (advantages that differ from grpo's on rewarded rollouts); packed, each is found by name; `create-skillrl
//     run`'s printed `npx skillrl check` passes on the full install.
// Prints a table and exits 1 naming what failed. Needs built packages (`pnpm build`) and the npm registry
// (third-party dependencies). Usage: node scripts/check-packed.mjs [--keep]
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'skillrl-packed-'));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const started = Date.now();
const rows = [];
let failed = 0;

// npm must not see the settings pnpm passes to scripts it runs (npm_config_*), nor the repository's.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_|PNPM_)/i.test(k) && k !== 'NODE_OPTIONS'),
);
env.CI = 'true';

function run(cmd, args, { cwd, timeout = 300_000, extraEnv = {} } = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout,
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status ?? r.signal}:\n${tail}`);
  }
  return r;
}

/** Runs a check; a failure is recorded (and printed) and later checks go on. */
async function check(name, fn) {
  const t0 = Date.now();
  try {
    const detail = (await fn()) ?? '';
    rows.push({ name, ok: true, seconds: (Date.now() - t0) / 1000, detail });
    console.log(`  ok    ${name}${detail ? ` — ${detail}` : ''}`);
    return true;
  } catch (error) {
    failed++;
    const message = error instanceof Error ? error.message : String(error);
    rows.push({ name, ok: false, seconds: (Date.now() - t0) / 1000, detail: message.split('\n')[0] });
    console.log(`  FAIL  ${name}\n${message.replace(/^/gm, '        ')}`);
    return false;
  }
}

// SKILLRL_PACKED_RUNTIME_ONLY=1 (CI's second pass, on Node 24): what depends on the Node version only — installs,
// loads, runs. The checks that compile declarations with tsc or build the scaffolds give the same answer on any
// Node, so that pass names them as skipped (the first pass ran them).
const runtimeOnly = process.env.SKILLRL_PACKED_RUNTIME_ONLY === '1';
async function checkTypesOrScaffold(name, fn) {
  if (!runtimeOnly) return check(name, fn);
  console.log(`  skip  ${name} (the same on every Node: the first pass ran it)`);
  return true;
}

/** `message` may be a function, for messages that can only be computed when the check fails. */
const assert = (cond, message) => {
  if (!cond) throw new Error(typeof message === 'function' ? message() : message);
};

function packageDirs() {
  const out = [];
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const file = join(root, 'packages', name, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (!pkg.private) out.push({ dir: join(root, 'packages', name), pkg });
  }
  return out;
}

const published = packageDirs();
const tarballOf = new Map();

// `--no-save` installs beside a package.json without rewriting it (a scaffold's own dependencies stay as written).
function npmInstall(dir, specs, { save = true } = {}) {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) {
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'packed-check', private: true, type: 'module' })}\n`,
    );
  }
  const flags = ['--no-audit', '--no-fund', '--loglevel=error', ...(save ? [] : ['--no-save'])];
  run('npm', ['install', ...flags, ...specs], { cwd: dir });
}

const hasTensorflow = (dir) => existsSync(join(dir, 'node_modules', '@tensorflow'));

function sizeOf(dir) {
  const r = spawnSync('du', ['-sk', join(dir, 'node_modules')], { encoding: 'utf8' });
  return `${Math.round(Number(r.stdout.split('\t')[0]) / 1024)} MB`;
}

/** The repository's packages a packed package depends on (dependencies only), transitively. */
function skillrlClosure(names) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const entry = published.find((p) => p.pkg.name === name);
    // Every published package of the repository: @skillrl/* and create-skillrl.
    for (const dep of Object.keys(entry?.pkg.dependencies ?? {}))
      if (published.some((p) => p.pkg.name === dep)) visit(dep);
  };
  for (const n of names) visit(n);
  return [...seen];
}

const TFJS_NOISE =
  /Platform node has already been set|looks like you are running TensorFlow\.js in Node|already registered|Overwriting the platform/;

/** The testkit's fake OpenAI server, loaded from an installed copy. */
async function fakeServer(installDir, respond) {
  const testkit = createRequire(join(installDir, 'package.json')).resolve('@skillrl/testkit');
  const { startFakeOpenAI } = await import(pathToFileURL(testkit).href);
  return startFakeOpenAI({ respond });
}

function messagesText(request) {
  return (request.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')))
    .join('\n');
}

/** A sorting expert: swaps the first pair out of order in the latest row the conversation shows. */
function sortingReply(request) {
  const rows = [...messagesText(request).matchAll(/The row is: ([\d ]+)/g)];
  const row = (rows.at(-1)?.[1] ?? '2 1').trim().split(/\s+/).map(Number);
  const i = row.findIndex((v, k) => k + 1 < row.length && v > row[k + 1]);
  return `Action: swap ${Math.max(0, i) + 1} ${Math.max(0, i) + 2}`;
}

/** Household: the agent looks around; the LLM editor writes a SKILL.md. */
function householdReply(request) {
  if (/skill editor/i.test(messagesText(request).slice(0, 400))) {
    return '```markdown\n---\nname: household-look\ndescription: Look around first. Use for every household task.\n---\n\n1. Look around.\n2. Go to the object.\n```';
  }
  return 'Action: look';
}

/** Runs an installed `skillrl` bin without blocking this process (the fake server lives here). */
function skillrl(installDir, args, cwd, extraEnv = {}) {
  const bin = join(installDir, 'node_modules', '.bin', 'skillrl');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { cwd, env: { ...env, ...extraEnv } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0)
        reject(
          new Error(
            `skillrl ${args.join(' ')} exited ${code}:\n${err.trim().split('\n').slice(-15).join('\n')}`,
          ),
        );
      else resolvePromise({ out, err });
    });
  });
}

/** Runs `node file ...args` without blocking this process (a fake server may live here); rejects on failure. */
function nodeAsync(file, args, cwd, { timeout = 120_000, extraEnv = {} } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd, env: { ...env, ...extraEnv } });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeout);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(out);
      else
        reject(
          new Error(
            `node ${file} ${timedOut ? `ran past ${timeout / 1000} s` : `exited ${code}`}:\n${out.trim().split('\n').slice(-15).join('\n')}`,
          ),
        );
    });
  });
}

function writeYaml(file, lines) {
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** A path tsc reports that lies in a package of this repository (or outside node_modules: the consumer's). */
const OURS = /(?:^|\/)node_modules\/(?:@skillrl\/|skillrl\/|create-skillrl\/)|^(?!.*node_modules\/)/;

/**
 * Compiles the `*.mts` files of `dir` as a user's project would: strict, nodenext, and `skipLibCheck: false`,
 * so every declaration file the packages ship is checked too (one that imports a package the install line
 * does not bring, such as an optional peer, fails with TS2307). An error in a third-party package's own
 * declarations (tfjs-layers' do not compile under `strict`) is no fault of ours: it is counted and named in
 * the returned note, not failed. tsc and @types/node come from a folder of their own, never from the install
 * under test.
 */
function tsc(dir, compilerOptions) {
  const tools = join(work, 'tools');
  if (!existsSync(join(tools, 'node_modules', 'typescript')))
    npmInstall(tools, ['typescript@5.9.3', '@types/node@20.19.9']);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(tools, 'node_modules', '@types')],
        ...compilerOptions,
      },
      include: ['*.mts'],
    }),
  );
  const r = spawnSync(
    process.execPath,
    [join(tools, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir, '--pretty', 'false'],
    { cwd: dir, env, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 << 20 },
  );
  if (r.status === 0) return '';
  const errors = [...`${r.stdout}`.matchAll(/^(\S[^\n(]*)\(\d+,\d+\): error TS\d+/gm)].map((m) => m[1]);
  const ours = errors.filter((file) => OURS.test(file));
  if (errors.length === 0 || ours.length > 0) {
    const tail = `${r.stdout}\n${r.stderr}`.trim().split('\n');
    const shown = ours.length > 0 ? tail.filter((line) => OURS.test(line.split('(')[0])) : tail;
    throw new Error(
      `tsc -p ${dir} (skipLibCheck false) exited ${r.status}:\n${shown.slice(0, 20).join('\n')}`,
    );
  }
  const theirs = [...new Set(errors.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? f))];
  return `; ${errors.length} errors in third-party declarations (${theirs.join(', ')}), none in ours`;
}

console.log(`check-packed: ${published.length} packages, work folder ${work}`);

// 1. Pack: every publishable package, the example adapter, and an ESM-only estimator package.
const packed = await check('pnpm pack every publishable package (and examples/custom-adapter)', () => {
  for (const { dir, pkg } of [
    ...published,
    {
      dir: join(root, 'examples/custom-adapter'),
      pkg: JSON.parse(readFileSync(join(root, 'examples/custom-adapter/package.json'), 'utf8')),
    },
  ]) {
    assert(
      existsSync(join(dir, pkg.main ?? 'index.js')) || !pkg.main,
      `${pkg.name}: ${pkg.main} is missing; run pnpm build first`,
    );
    const before = new Set(readdirSync(tarballs));
    run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir });
    const added = readdirSync(tarballs).filter((f) => !before.has(f));
    assert(added.length === 1, `${pkg.name}: pnpm pack wrote ${added.length} files`);
    tarballOf.set(pkg.name, join(tarballs, added[0]));
  }
  const estimator = join(work, 'esm-only-estimator');
  mkdirSync(estimator);
  writeFileSync(
    join(estimator, 'package.json'),
    JSON.stringify({
      name: 'esm-only-estimator',
      version: '1.0.0',
      type: 'module',
      exports: { '.': { import: './index.js' } },
    }),
  );
  writeFileSync(
    join(estimator, 'index.js'),
    "export const estimators = {\n  'zero-adv': () => ({ name: 'zero-adv', estimate: (batch) => ({ advantages: new Float64Array(batch.scores.length), metrics: {} }) }),\n};\n",
  );
  run('npm', ['pack', '--pack-destination', tarballs, '--loglevel=error'], { cwd: estimator });
  tarballOf.set('esm-only-estimator', join(tarballs, 'esm-only-estimator-1.0.0.tgz'));
  return `${tarballOf.size} tarballs`;
});
if (!packed) finish();

await check(
  'each tarball: the files package.json lists, LICENSE, no workspace: range, no repository links',
  () => {
    for (const { pkg } of published) {
      const tgz = tarballOf.get(pkg.name);
      const listing = run('tar', ['-tzf', tgz])
        .stdout.split('\n')
        .map((l) => l.replace(/^package\//, ''));
      for (const entry of pkg.files ?? []) {
        assert(
          listing.some((f) => f === entry || f.startsWith(`${entry}/`)),
          `${pkg.name}: "${entry}" is in files but not in the tarball`,
        );
      }
      assert(listing.includes('LICENSE'), `${pkg.name}: no LICENSE`);
      const manifest = run('tar', ['-xzOf', tgz, 'package/package.json']).stdout;
      assert(!manifest.includes('workspace:'), `${pkg.name}: a workspace: range survived packing`);
      const m = JSON.parse(manifest);
      assert(m.repository?.directory, `${pkg.name}: no repository.directory`);
      const readme = run('tar', ['-xzOf', tgz, 'package/README.md']).stdout;
      const bad = readme.match(/\]\((?:\.\.\/|\/work\/)[^)]*\)/);
      assert(!bad, `${pkg.name}: README links into the repository: ${bad?.[0]}`);
    }
    return `${published.length} packages`;
  },
);

// 2. Lean: the CLI with only its own @skillrl dependencies (the orchestrator among them).
const lean = join(work, 'lean');
const leanNames = skillrlClosure(['@skillrl/cli']);
const leanOk = await check(`lean install: ${leanNames.join(' ')} has no @tensorflow`, () => {
  npmInstall(
    lean,
    leanNames.map((n) => tarballOf.get(n)),
  );
  assert(
    !hasTensorflow(lean),
    () =>
      `node_modules/@tensorflow exists: ${readdirSync(join(lean, 'node_modules/@tensorflow')).join(', ')}`,
  );
  for (const name of ['@skillrl/orchestrator', '@skillrl/eval', '@skillrl/cli']) {
    run('node', ['-e', `require('${name}')`], { cwd: lean });
    run('node', ['--input-type=module', '-e', `await import('${name}')`], { cwd: lean });
  }
  assert(existsSync(join(lean, 'node_modules', '.bin', 'skillrl')), 'no node_modules/.bin/skillrl');
  return `node_modules ${sizeOf(lean)}`;
});

let llmRunDir;
let llmSkillcDir;
if (leanOk) {
  await check(
    'LLM-only Skill-R1 run (+ task-household, skill-generator, testkit): still no @tensorflow',
    async () => {
      npmInstall(
        lean,
        ['@skillrl/task-household', '@skillrl/skill-generator', '@skillrl/testkit'].map((n) =>
          tarballOf.get(n),
        ),
      );
      assert(!hasTensorflow(lean), 'node_modules/@tensorflow appeared with skill-generator');
      const server = await fakeServer(lean, householdReply);
      try {
        const agent = `{ name: openai, options: { model: fake, baseURL: "${server.baseURL}", temperature: 0 } }`;
        const config = writeYaml(join(lean, 'llm.yaml'), [
          'method: evolve',
          'seed: 1',
          'name: llm-only',
          'adapter: household',
          'tasks: { split: train, limit: 1 }',
          `agent: ${agent}`,
          'maxSteps: 3',
          'evolve:',
          '  mode: inference',
          '  generations: 1',
          '  candidates: 2',
          '  episodes: 1',
          `  generator: { name: llm-editor, options: { model: { model: fake, baseURL: "${server.baseURL}" } } }`,
        ]);
        const { out, err } = await skillrl(lean, ['run', config, '--json'], lean);
        const result = JSON.parse(out.trim().split('\n').at(-1));
        assert(result.ok && result.status === 'completed', `run did not complete: ${out}`);
        assert(!TFJS_NOISE.test(err), `tfjs noise on stderr: ${err}`);
        llmRunDir = result.dir;
        return `${result.ran} rollouts, ${server.stats().completed} requests`;
      } finally {
        await server.close();
      }
    },
  );
  // An LLM-only SKILLC run asking for token ids, with an external trainer: what @skillrl/export's README
  // example turns into trl and verl rows below.
  await check(
    'LLM-only SKILLC run with token ids (trainer external): skillrl export --format verl',
    async () => {
      const server = await fakeServer(lean, householdReply);
      try {
        const agent = `{ name: openai, options: { model: fake, baseURL: "${server.baseURL}", temperature: 0, logprobs: true, returnTokenIds: true } }`;
        const config = writeYaml(join(lean, 'llm-skillc.yaml'), [
          'method: internalize',
          'seed: 1',
          'name: llm-skillc',
          'adapter: household',
          'tasks: { split: train, limit: 2 }',
          `agent: ${agent}`,
          'maxSteps: 3',
          'internalize:',
          '  steps: 1',
          '  tasksPerStep: 2',
          '  groupSize: 2',
          '  validateEvery: 1',
          '  validation: { split: valid_seen, limit: 1 }',
          '  trainer: external',
        ]);
        const { out } = await skillrl(lean, ['run', config, '--json'], lean);
        const result = JSON.parse(out.trim().split('\n').at(-1));
        assert(result.ok && result.status === 'completed', `run did not complete: ${out}`);
        const exported = await skillrl(lean, ['export', result.dir, '--format', 'verl', '--json'], lean);
        const rows = JSON.parse(exported.out.trim().split('\n').at(-1));
        assert(rows.ok && rows.rows > 0, `export: ${exported.out}`);
        llmSkillcDir = result.dir;
        return `${result.ran} rollouts, ${rows.rows} verl rows`;
      } finally {
        await server.close();
      }
    },
  );
  // A user's own program as the task model (agent: { program }): a Node script with no dependency at all
  // (fetch for the model through the proxy, and for MCP's streamable HTTP by hand) plays household episodes.
  await check(
    'program agent (+ agent-proxy, mcp): a dependency-free program as the frozen task model of a Skill-R1 run, still no @tensorflow',
    async () => {
      npmInstall(
        lean,
        ['@skillrl/agent-proxy', '@skillrl/mcp'].map((n) => tarballOf.get(n)),
      );
      assert(!hasTensorflow(lean), 'node_modules/@tensorflow appeared with agent-proxy or mcp');
      writeFileSync(
        join(lean, 'my-agent.mjs'),
        [
          "import { readFileSync } from 'node:fs';",
          'const mcp = process.env.SKILLRL_MCP_URL;',
          'let session;',
          'let id = 0;',
          'async function rpc(method, params, notify = false) {',
          "  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };",
          "  if (session) headers['mcp-session-id'] = session;",
          "  const body = { jsonrpc: '2.0', method, ...(params ? { params } : {}), ...(notify ? {} : { id: ++id }) };",
          "  const res = await fetch(mcp, { method: 'POST', headers, body: JSON.stringify(body) });",
          "  session ??= res.headers.get('mcp-session-id');",
          '  if (notify) return undefined;',
          '  const reply = await res.json();',
          '  if (reply.error) throw new Error(reply.error.message);',
          '  return reply.result;',
          '}',
          "await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'my-agent', version: '1.0.0' } });",
          "await rpc('notifications/initialized', undefined, true);",
          "let observation = JSON.parse(readFileSync(process.env.SKILLRL_TASK_FILE, 'utf8')).observation;",
          'for (let i = 0; i < 3; i++) {',
          '  const res = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {',
          "    method: 'POST',",
          "    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY}` },",
          "    body: JSON.stringify({ model: 'mine', messages: [{ role: 'user', content: observation }] }),",
          '  });',
          '  const reply = (await res.json()).choices[0].message.content;',
          "  const result = await rpc('tools/call', { name: 'act', arguments: { action: reply.replace(/^Action:\\s*/, '') } });",
          '  observation = result.structuredContent.observation;',
          '  if (result.structuredContent.done || result.structuredContent.ended) break;',
          '}',
          '',
        ].join('\n'),
      );
      const server = await fakeServer(lean, householdReply);
      try {
        const config = writeYaml(join(lean, 'program.yaml'), [
          'method: evolve',
          'seed: 1',
          'name: program-agent',
          'adapter: household',
          'tasks: { split: train, limit: 1 }',
          `agent: { program: { command: [node, my-agent.mjs], upstream: { model: fake, baseURL: "${server.baseURL}" } } }`,
          'maxSteps: 3',
          'evolve:',
          '  mode: inference',
          '  generations: 1',
          '  candidates: 2',
          '  episodes: 1',
          `  generator: { name: llm-editor, options: { model: { model: fake, baseURL: "${server.baseURL}" } } }`,
        ]);
        const checked = await skillrl(lean, ['check', config], lean);
        assert(/ok|ready/i.test(checked.out), `check: ${checked.out}${checked.err}`);
        const { out } = await skillrl(lean, ['run', config, '--json'], lean);
        const result = JSON.parse(out.trim().split('\n').at(-1));
        assert(result.ok && result.status === 'completed', `run did not complete: ${out}`);
        const rollouts = readFileSync(join(result.dir, 'rollouts.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        assert(
          rollouts.length > 0 &&
            rollouts.every((t) => !t.error && t.steps.length > 0 && t.steps[0].info?.calls?.length > 0),
          `rollouts: ${JSON.stringify(rollouts[0])?.slice(0, 400)}`,
        );
        return `${rollouts.length} rollouts played by the program, ${server.stats().completed} requests`;
      } finally {
        await server.close();
      }
    },
  );
  // The lean packages as a user meets them: each root loads, and each README's first example runs as printed.
  const leanRoots = [
    '@skillrl/core',
    '@skillrl/advantage',
    '@skillrl/curriculum',
    '@skillrl/rollout',
    '@skillrl/verifiers',
    '@skillrl/report',
    '@skillrl/export',
    '@skillrl/testkit',
    '@skillrl/task-qa',
    '@skillrl/task-household',
    '@skillrl/task-shop',
    '@skillrl/skill-generator',
  ];
  const leanEntries = [...leanRoots, '@skillrl/skill-generator/llm-editor'];
  const leanLoads = await check(
    `lean install (+ task-qa, task-shop, verifiers): require() and import() of ${leanEntries.length} lean entries, still no @tensorflow`,
    () => {
      npmInstall(
        lean,
        ['@skillrl/task-qa', '@skillrl/task-shop', '@skillrl/verifiers'].map((n) => tarballOf.get(n)),
      );
      assert(!hasTensorflow(lean), 'node_modules/@tensorflow appeared with task-qa, task-shop or verifiers');
      for (const mode of ['require', 'import']) {
        const body = leanEntries
          .map(
            (n) =>
              `try { ${mode === 'require' ? 'require' : 'await import'}(${JSON.stringify(n)}); } catch (e) { bad.push(${JSON.stringify(n)} + ': ' + e.message.split('\\n')[0]); }`,
          )
          .join('\n');
        const file = join(lean, `load-lean.${mode === 'require' ? 'cjs' : 'mjs'}`);
        writeFileSync(
          file,
          `const bad = [];\n${body}\nif (bad.length) { console.error(bad.join('\\n')); process.exit(1); }\n`,
        );
        const r = spawnSync(process.execPath, [file], { cwd: lean, env, encoding: 'utf8', timeout: 120_000 });
        assert(r.status === 0, () => `${mode}() failed on the lean install:\n${(r.stderr ?? '').trim()}`);
      }
      return `${leanEntries.length} entries × require and import, node_modules ${sizeOf(lean)}`;
    },
  );

  if (leanLoads) {
    await check(
      "lean install: each lean package's first README example without tfjs runs as printed (ts compiled by tsc)",
      async () => {
        const dir = join(lean, 'readme-examples');
        const out = join(dir, 'out');
        mkdirSync(out, { recursive: true });
        // What needs tfjs, and so is not run on this install (the full install runs those).
        const needsTfjs =
          /from '(?:@tensorflow\/|@skillrl\/tensor-ops|@skillrl\/policy-tfjs|[^']*\/step-editor')/;
        const picked = [];
        for (const name of leanRoots) {
          const readme = readFileSync(join(lean, 'node_modules', name, 'README.md'), 'utf8');
          const example = [...readme.matchAll(/```(ts|js)\n([\s\S]*?)```/g)].find(
            (m) => !needsTfjs.test(m[2]),
          );
          assert(example, `${name}: its README has no ts or js example that runs without tfjs`);
          const base = name.replace('@skillrl/', '');
          writeFileSync(join(dir, `${base}.${example[1] === 'ts' ? 'mts' : 'mjs'}`), example[2]);
          if (example[1] === 'js') writeFileSync(join(out, `${base}.mjs`), example[2]);
          picked.push({ name, base, lang: example[1] });
        }
        // TypeScript as a user would run it: compiled by tsc (strict, nodenext, every declaration file
        // checked) against the lean install.
        const tscNote = tsc(dir, { rootDir: '.', outDir: 'out' });
        // Each in a folder of its own (core's writes runs/demo); report's reads the LLM-only run above, and the
        // LLM editor's endpoint (EDITOR_BASE_URL, as its example reads it) is the testkit's fake server.
        const server = await fakeServer(lean, householdReply);
        try {
          for (const { name, base } of picked) {
            const cwd = join(dir, `run-${base}`);
            mkdirSync(cwd, { recursive: true });
            // report's example reads the Skill-R1 run above, export's the SKILLC run with token ids.
            const args =
              name === '@skillrl/report'
                ? [llmRunDir ?? join(lean, 'runs', 'llm-only')]
                : name === '@skillrl/export'
                  ? [llmSkillcDir ?? join(lean, 'runs', 'llm-skillc')]
                  : [];
            try {
              await nodeAsync(join(out, `${base}.mjs`), args, cwd, {
                timeout: 120_000,
                extraEnv: { EDITOR_BASE_URL: server.baseURL, EDITOR_MODEL: 'fake' },
              });
            } catch (error) {
              throw new Error(`${name}: ${error.message}`);
            }
          }
        } finally {
          await server.close();
        }
        assert(!hasTensorflow(lean), 'node_modules/@tensorflow appeared');
        const ts = picked.filter((p) => p.lang === 'ts').length;
        return `${picked.length} run (${ts} TypeScript, ${picked.length - ts} JavaScript)${tscNote}`;
      },
    );
  }
}

// 2b. verifiers alone: openai is an optional peer used by the LLM judge only.
const verifiersOnly = join(work, 'verifiers-only');
await check(
  '@skillrl/verifiers alone: no openai installed, exact match verifies, the judge names what to install, its types compile',
  () => {
    npmInstall(
      verifiersOnly,
      skillrlClosure(['@skillrl/verifiers']).map((n) => tarballOf.get(n)),
    );
    assert(!existsSync(join(verifiersOnly, 'node_modules/openai')), 'node_modules/openai was installed');
    const script = `
    import { exactMatch, llmJudge } from '@skillrl/verifiers';
    const task = { id: 't', family: 'f', split: 'test', prompt: 'q', answer: '42' };
    const trajectory = { id: 'x', taskId: 't', family: 'f', condition: 0, steps: [], answer: '42', reward: 0, verdict: { score: 0, passed: false } };
    const verdict = await exactMatch().verify(task, trajectory);
    if (!verdict.passed) throw new Error('exact match failed: ' + JSON.stringify(verdict));
    const judge = llmJudge({ model: 'm', rubric: 'r', baseURL: 'http://127.0.0.1:9/v1' });
    try { await judge.verify(task, trajectory); throw new Error('the judge ran without openai'); }
    catch (e) { if (!/npm install openai/.test(e.message)) throw e; console.log(e.message); }
  `;
    const file = join(verifiersOnly, 'check.mjs');
    writeFileSync(file, script);
    const { stdout } = run('node', [file], { cwd: verifiersOnly });
    run('node', ['-e', "require('@skillrl/verifiers')"], { cwd: verifiersOnly });
    // Its types without openai: the judge's options (its client included) declared without importing it.
    const typed = join(verifiersOnly, 'typed');
    mkdirSync(typed, { recursive: true });
    writeFileSync(
      join(typed, 'judge.mts'),
      [
        "import { exactMatch, llmJudge, type JudgeChatClient, type LlmJudgeOptions } from '@skillrl/verifiers';",
        "const client: JudgeChatClient = { chat: { completions: { create: async () => ({ choices: [{ message: { content: 'GRADE: A' } }] }) } } };",
        "const options: LlmJudgeOptions = { model: 'm', rubric: 'r', client };",
        'export const verifiers = [exactMatch(), llmJudge(options)];',
        '',
      ].join('\n'),
    );
    const tscNote = tsc(typed, { noEmit: true });
    return `node_modules ${sizeOf(verifiersOnly)}; types compile without openai (skipLibCheck false${tscNote}); ${stdout.trim().slice(0, 80)}…`;
  },
);

// 3. Everything: every tarball, the batteries-included skillrl, the example adapter, the ESM-only estimator.
const full = join(work, 'full');
const fullOk = await check('full install: every tarball with npm', () => {
  npmInstall(full, [...tarballOf.values()]);
  return `node_modules ${sizeOf(full)}`;
});

if (fullOk) {
  const names = [...published.map((p) => p.pkg.name), '@skillrl/example-custom-adapter'];
  for (const mode of ['require', 'import']) {
    await check(`${mode}() of every package (${names.length}), no tfjs banner`, () => {
      const body = names
        .map((n) =>
          mode === 'require'
            ? `try { require(${JSON.stringify(n)}); } catch (e) { bad.push(${JSON.stringify(n)} + ': ' + e.message.split('\\n')[0]); }`
            : `try { await import(${JSON.stringify(n)}); } catch (e) { bad.push(${JSON.stringify(n)} + ': ' + e.message.split('\\n')[0]); }`,
        )
        .join('\n');
      const script = `const bad = [];\n${body}\nif (bad.length) { console.error(bad.join('\\n')); process.exit(1); }\n`;
      const file = join(full, `load-all.${mode === 'require' ? 'cjs' : 'mjs'}`);
      writeFileSync(file, script);
      const r = run('node', [file], { cwd: full });
      assert(
        !TFJS_NOISE.test(r.stderr + r.stdout),
        `tfjs printed: ${(r.stderr + r.stdout).trim().slice(0, 300)}`,
      );
    });
  }

  await check('@skillrl/testkit loads without vitest installed', () => {
    assert(
      !existsSync(join(full, 'node_modules', 'vitest')),
      'vitest is installed; the check needs it absent',
    );
    run(
      'node',
      [
        '-e',
        "const t = require('@skillrl/testkit'); if (typeof t.startFakeOpenAI !== 'function') process.exit(1)",
      ],
      { cwd: full },
    );
  });

  // The page's files travel in the tarball (public/) and its libraries' browser builds are found in the
  // installed dependencies: the app, Chart.js, TanStack Virtual and the runs API, served from the install.
  await check(
    '@skillrl/serve as installed: its page, its libraries and the runs API (ESM and require)',
    () => {
      const dir = join(full, 'serve-check');
      mkdirSync(join(dir, 'runs'), { recursive: true });
      const script = join(dir, 'check.mjs');
      writeFileSync(
        script,
        `import { createRequire } from 'node:module';
import { startServe } from '@skillrl/serve';
const s = await startServe({ dir: ${JSON.stringify(join(dir, 'runs'))} });
try {
  for (const p of ['', 'assets/app.js', 'vendor/chart.umd.min.js', 'vendor/virtual-core/index.js', 'api/runs']) {
    const r = await fetch(s.url + p);
    if (r.status !== 200) throw new Error(p + ': ' + r.status);
  }
} finally {
  await s.close();
}
const cjs = createRequire(import.meta.url)('@skillrl/serve');
if (typeof cjs.startServe !== 'function') throw new Error('require() gave no startServe');
`,
      );
      run('node', [script], { cwd: full });
      return 'page, Chart.js, TanStack Virtual and /api/runs served from the installed tarball';
    },
  );

  const server = await fakeServer(full, sortingReply);
  try {
    const sorting = [
      'method: internalize',
      'seed: 1',
      'name: sorting',
      'adapter: { package: "@skillrl/example-custom-adapter" } # its default export',
      'tasks: { split: test, limit: 6 }',
      `agent: { name: openai, options: { model: fake, baseURL: "${server.baseURL}", temperature: 0 } }`,
      'concurrency: 4',
    ];
    const training = [
      'internalize:',
      '  steps: 1',
      '  tasksPerStep: 2',
      '  groupSize: 2',
      '  validateEvery: 1',
      '  validation: { split: test, limit: 2 }',
      '  trainer: external',
    ];
    await check(
      'examples/custom-adapter (packed) loads by its default export and scores > 0 under skillrl eval',
      async () => {
        const config = writeYaml(join(full, 'sorting.yaml'), [...sorting, ...training]);
        const { out } = await skillrl(full, ['eval', config, '--json'], full);
        const result = JSON.parse(out.trim().split('\n').at(-1));
        assert(result.overall.withoutSkill > 0, `success without skills is ${result.overall.withoutSkill}`);
        return `success ${(100 * result.overall.withoutSkill).toFixed(0)}% without skills, ${(100 * result.overall.withSkill).toFixed(0)}% with`;
      },
    );

    await check('an ESM-only estimator package is found by a run config and used', async () => {
      const config = writeYaml(join(full, 'estimator.yaml'), [
        ...sorting.map((l) => l.replace('name: sorting', 'name: esm-estimator')),
        'estimator: { package: esm-only-estimator }',
        ...training,
      ]);
      await skillrl(full, ['check', config], full);
      const { out } = await skillrl(full, ['run', config, '--json'], full);
      const result = JSON.parse(out.trim().split('\n').at(-1));
      const manifest = JSON.parse(readFileSync(join(result.dir, 'run.json'), 'utf8'));
      assert(
        manifest.components.estimator === 'package:esm-only-estimator#zero-adv',
        `estimator: ${manifest.components.estimator}`,
      );
      return manifest.components.estimator;
    });
  } finally {
    await server.close();
  }

  await check('a tfjs run (skill-reading agent, tfjs trainer) as installed, no tfjs banner', async () => {
    const config = writeYaml(join(full, 'tfjs.yaml'), [
      'method: internalize',
      'seed: 1',
      'name: tfjs',
      'adapter: household',
      'tasks: { split: train, limit: 2 }',
      'agent: skill-reading',
      'maxSteps: 10',
      'internalize:',
      '  steps: 1',
      '  tasksPerStep: 1',
      '  groupSize: 2',
      '  validateEvery: 1',
      '  validation: { split: valid_seen, limit: 2 }',
      '  trainer: { name: tfjs, options: { lr: 0.01 } }',
    ]);
    const { out, err } = await skillrl(full, ['run', config, '--json'], full);
    assert(!TFJS_NOISE.test(err + out), `tfjs printed: ${err.slice(0, 300)}`);
    // The cpu backend is the one that greets Node users with "install our node backend".
    const cpu = await skillrl(
      full,
      ['run', config, '--json', '--run-dir', join(full, 'runs', 'tfjs-cpu')],
      full,
      { SKILLRL_TF_BACKEND: 'cpu' },
    );
    assert(!TFJS_NOISE.test(cpu.err + cpu.out), `tfjs printed on the cpu backend: ${cpu.err.slice(0, 300)}`);
    const { out: evalOut } = await skillrl(
      full,
      ['eval', join(full, 'runs', 'tfjs'), '--split', 'valid_unseen', '--limit', '2', '--json'],
      full,
    );
    const evaluated = JSON.parse(evalOut.trim().split('\n').at(-1));
    assert(evaluated.restored === 'checkpoint', `eval restored by ${evaluated.restored}`);
    return `run (wasm, then cpu) and eval <run-dir> (${evaluated.overall.episodes} episodes)`;
  });

  await checkTypesOrScaffold(
    'README examples: imports covered by their install lines; TypeScript ones type-check, JavaScript ones run',
    () => {
      const dir = join(full, 'readme-examples');
      mkdirSync(dir, { recursive: true });
      // Shown, not run: report's example needs a run directory of the user's;
      // skillrl's runs the 20-step config its shell lines write (the tfjs run above covers that path).
      const notRun = new Set(['@skillrl/report', 'skillrl']);
      const ts = [];
      const js = [];
      for (const { pkg } of [...published]) {
        const readme = readFileSync(join(full, 'node_modules', pkg.name, 'README.md'), 'utf8');
        const installs = new Set();
        for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
          for (const line of block[1].split('\n')) {
            const m = /^(?:pnpm add|npm install|npm i)\s+(.*)$/.exec(line.replace(/#.*$/, '').trim());
            if (m) for (const w of m[1].split(/\s+/)) if (!w.startsWith('-')) installs.add(w);
          }
        }
        const example = /```(ts|js)\n([\s\S]*?)```/.exec(readme);
        if (!example) continue;
        // What an install brings: the packages named, and their dependencies.
        const covered = new Set(installs);
        for (const name of installs) {
          const manifest = join(full, 'node_modules', name, 'package.json');
          if (existsSync(manifest))
            for (const d of Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {}))
              covered.add(d);
        }
        for (const m of example[2].matchAll(/from '((?:@skillrl|@tensorflow)\/[^/']+)[^']*'/g)) {
          assert(
            covered.has(m[1]),
            `${pkg.name}: its README example imports ${m[1]}, which its install line (${[...installs].join(' ')}) does not bring`,
          );
        }
        const base = pkg.name.replace('@skillrl/', '');
        if (example[1] === 'ts') {
          writeFileSync(join(dir, `${base}.mts`), example[2]);
          ts.push(pkg.name);
        } else if (!notRun.has(pkg.name)) {
          writeFileSync(join(dir, `${base}.mjs`), example[2]);
          js.push(base);
        }
      }
      const tscNote = tsc(dir, { noEmit: true });
      for (const base of js) run('node', [join(dir, `${base}.mjs`)], { cwd: dir, timeout: 120_000 });
      return `${ts.length} type-checked, ${js.length} run${tscNote}`;
    },
  );

  // 4. Scaffolds: `npm create skillrl` from the packed create-skillrl, then the next steps it prints, run as
  // printed in the new folder, except that `npm install` takes the @skillrl packages from the tarballs.
  const created = join(work, 'created');
  mkdirSync(created, { recursive: true });
  const createSkillrl = (args) =>
    run(
      'npm',
      ['exec', '--yes', `--package=${tarballOf.get('create-skillrl')}`, '--', 'create-skillrl', ...args],
      {
        cwd: created,
      },
    ).stdout;
  for (const kind of ['adapter', 'estimator']) {
    await checkTypesOrScaffold(
      `npm create skillrl ${kind} (packed create-skillrl), then its printed next steps: npm install (tarballs), npm test, npm run build, npx skillrl run run.yaml${kind === 'estimator' ? ', npm run compare' : ''}; by name from an install`,
      async () => {
        const out = createSkillrl([kind, `my-${kind}`]);
        const next = /^next: (.*)$/m.exec(out)?.[1];
        assert(next, `no next steps printed:\n${out}`);
        const [cd, ...steps] = next.split(' && ');
        assert(cd === `cd my-${kind}`, `the steps start with "${cd}"`);
        const dir = join(created, `my-${kind}`);
        const listed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        const wanted = { ...listed.dependencies, ...listed.devDependencies };
        const ours = Object.keys(wanted).filter((n) => n.startsWith('@skillrl/'));
        assert(
          ours.includes('@skillrl/cli'),
          'the package does not list @skillrl/cli, which npx skillrl needs',
        );
        // The ranges this create-skillrl was built with are this release's: the tarballs satisfy them.
        for (const name of ours) {
          const version = published.find((p) => p.pkg.name === name)?.pkg.version;
          assert(
            wanted[name] === `^${version}`,
            `${name}: the scaffold asks for ${wanted[name]}, the release is ${version}`,
          );
        }
        let passed;
        let ran;
        let compared;
        for (const step of steps) {
          if (step === 'npm install') {
            // The scaffold names caret ranges; the tarballs stand in for the registry's @skillrl packages.
            npmInstall(
              dir,
              skillrlClosure(ours).map((n) => tarballOf.get(n)),
              { save: false },
            );
            // npx must find the package's own CLI, never fetch the batteries `skillrl` from the registry.
            assert(
              existsSync(join(dir, 'node_modules', '.bin', 'skillrl')),
              'npm install gave no node_modules/.bin/skillrl',
            );
            continue;
          }
          const r = run('sh', ['-c', step], { cwd: dir, timeout: 300_000 });
          // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest's colours
          const plain = `${r.stdout}\n${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
          if (step === 'npm test') passed = /Tests\s+(\d+) passed/.exec(plain)?.[1];
          if (step === 'npx skillrl run run.yaml') {
            ran = /rollouts run (\d+)/.exec(plain)?.[1];
            assert(/run \S+ completed/.test(plain), `npx skillrl run run.yaml: ${plain.slice(-600)}`);
            // Its validation is sized so that SKILLC can retire a skill type: no warning that none ever can.
            assert(
              !/can (ever|never) retire/.test(plain),
              `npx skillrl run run.yaml warned: ${plain.slice(-600)}`,
            );
          }
          if (step === 'npm run compare') {
            const m = /gave (\d+) of (\d+) rollouts another advantage than grpo \((\d+) rewarded\)/.exec(
              plain,
            );
            assert(
              m && Number(m[1]) > 0 && Number(m[3]) > 0,
              `npm run compare showed no difference:\n${plain.slice(-800)}`,
            );
            compared = `${m[1]} of ${m[2]} advantages differ from grpo's`;
          }
        }
        assert(steps.includes('npx skillrl run run.yaml'), `the steps do not run run.yaml: ${next}`);
        // By package name, once installed elsewhere: packed, installed beside skillrl, named in a config.
        run('npm', ['pack', '--pack-destination', tarballs, '--loglevel=error'], { cwd: dir });
        npmInstall(full, ['--no-save', join(tarballs, `my-${kind}-0.1.0.tgz`)]);
        const named = readFileSync(join(dir, 'run.yaml'), 'utf8')
          .replace('{ package: "./" }', `{ package: "my-${kind}" }`)
          .replace('package: "./"', `package: "my-${kind}"`)
          .replace(/"\.\/([\w-]+\.mjs)"/g, (_, file) => JSON.stringify(join(dir, file)));
        assert(named.includes(`"my-${kind}"`), 'run.yaml names the package by path as "./"');
        const byName = writeYaml(join(full, `by-name-${kind}.yaml`), [named]);
        await skillrl(full, ['check', byName], full);
        return `${passed ?? '?'} tests passed, run ${ran ?? '?'} rollouts${compared ? `, ${compared}` : ''}; by name from an install: check ok`;
      },
    );
  }

  await check(
    'npm create skillrl run skillc.yaml --template household-skillc: its printed check runs as printed',
    () => {
      const out = createSkillrl(['run', 'skillc.yaml', '--template', 'household-skillc']);
      const next = /^next: (.*)$/m.exec(out)?.[1] ?? '';
      const [install, checkStep, runStep] = next.split(' && ');
      assert(
        install === 'npm install @skillrl/cli @skillrl/task-household @skillrl/policy-tfjs' &&
          checkStep === 'npx skillrl check skillc.yaml' &&
          runStep === 'npx skillrl run skillc.yaml',
        `next: ${next}`,
      );
      // The full install holds what the install step names (from the tarballs); the 360-step run is not run here
      // (the tfjs run above covers that path).
      copyFileSync(join(created, 'skillc.yaml'), join(full, 'skillc.yaml'));
      run('sh', ['-c', checkStep], { cwd: full });
      return next;
    },
  );
}

finish();

function finish() {
  const total = ((Date.now() - started) / 1000).toFixed(0);
  const width = Math.max(...rows.map((r) => r.name.length), 5);
  console.log(`\n${'check'.padEnd(width)}  result  seconds`);
  console.log(`${'-'.repeat(width)}  ------  -------`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(width)}  ${r.ok ? 'ok    ' : 'FAILED'}  ${r.seconds.toFixed(1).padStart(7)}`,
    );
  console.log(
    `check-packed (Node ${process.version}): ${rows.length - failed} passed, ${failed} failed in ${total} s`,
  );
  // For the CI summary line (scripts/test-summary.mjs counts these as tests).
  mkdirSync(join(root, '.packed-check'), { recursive: true });
  // SKILLRL_PACKED_LABEL names a second pass (CI's on Node 24): its own report beside the first.
  const label = process.env.SKILLRL_PACKED_LABEL;
  writeFileSync(
    join(root, '.packed-check', label ? `results-${label}.json` : 'results.json'),
    `${JSON.stringify({ passed: rows.length - failed, failed, seconds: Number(total), node: process.version, rows }, null, 2)}\n`,
  );
  // The installs are large (about 1 GB of node_modules): removed in the background, not waited for.
  if (!keep) spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
  else console.log(`kept ${work}`);
  if (failed > 0) {
    console.error(
      `check-packed: ${failed} check(s) failed: ${rows
        .filter((r) => !r.ok)
        .map((r) => r.name)
        .join('; ')}`,
    );
    process.exit(1);
  }
  process.exit(0);
}
