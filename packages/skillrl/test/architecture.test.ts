import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md is written from the code: its package table must say what each package.json says, and
// the dependency rules it states must hold in the manifests and the sources. A package added, a dependency
// added or a rule broken without the page following fails here.

const root = join(__dirname, '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const packages = readdirSync(join(root, 'packages'))
  .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
  .map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest,
  }))
  .filter(({ manifest }) => !manifest.private);

const short = (name: string) => name.replace(/^@skillrl\//, '');
const ours = new Set(packages.map(({ manifest }) => manifest.name));

/** The table's rows: `| \`name\` | dependencies | peers |`, the dependencies' names without their notes. */
function tableRows(): Map<string, { deps: string[]; peers: string }> {
  const rows = new Map<string, { deps: string[]; peers: string }>();
  for (const line of doc.split('\n')) {
    const m = /^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \|$/.exec(line.trim());
    if (!m) continue;
    const deps = (m[2] as string)
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map((d) => d.trim())
      .filter((d) => d !== '' && d !== '—');
    rows.set(m[1] as string, { deps, peers: (m[3] as string).trim() });
  }
  return rows;
}

describe('docs/ARCHITECTURE.md, against the code', () => {
  const rows = tableRows();

  it('lists every published package, and its dependencies as its package.json has them', () => {
    expect([...rows.keys()].sort()).toEqual(packages.map(({ manifest }) => short(manifest.name)).sort());
    // Every mismatch at once, so one run says all the page must change.
    const mismatches: Record<string, unknown> = {};
    for (const { manifest } of packages) {
      if (manifest.name === 'skillrl') continue; // "every package above, tfjs": checked by meta-package.test
      const row = rows.get(short(manifest.name));
      const declared = Object.keys(manifest.dependencies ?? {})
        .map(short)
        .sort();
      const listed = row?.deps.slice().sort();
      if (JSON.stringify(listed) !== JSON.stringify(declared))
        mismatches[`${manifest.name} dependencies`] = { page: listed, packageJson: declared };
      const peers = Object.keys(manifest.peerDependencies ?? {});
      if (row?.peers === '—' && peers.length > 0)
        mismatches[`${manifest.name} peers`] = { page: '—', packageJson: peers };
      for (const peer of peers) {
        if (
          row &&
          row.peers !== '—' &&
          !row.peers.includes(peer.split('/').at(-1) as string) &&
          manifest.name !== '@skillrl/orchestrator'
        )
          mismatches[`${manifest.name} peer ${peer}`] = { page: row.peers };
      }
    }
    expect(mismatches).toEqual({});
  });

  it('nothing depends on the orchestrator but eval, the CLI and the meta-package, in manifests and in sources', () => {
    const over = ['skillrl', '@skillrl/cli', '@skillrl/eval', '@skillrl/orchestrator'];
    for (const { dir, manifest } of packages) {
      if (over.includes(manifest.name)) continue;
      const named = { ...manifest.dependencies, ...manifest.peerDependencies };
      expect(named['@skillrl/orchestrator'], manifest.name).toBeUndefined();
      // create-skillrl's sources hold the code it writes into a user's package as strings (a scaffold's
      // `npm run compare` calls the orchestrator's runConfig): its manifest above is what it imports.
      if (manifest.name === 'create-skillrl') continue;
      for (const file of sources(join(root, 'packages', dir, 'src'))) {
        expect(readFileSync(file, 'utf8'), file).not.toMatch(/from ['"]@skillrl\/orchestrator/);
      }
    }
  });

  it('nothing depends on the CLI but the meta-package: the orchestrator never names it (no cycle)', () => {
    for (const { dir, manifest } of packages) {
      if (manifest.name === 'skillrl' || manifest.name === '@skillrl/cli') continue;
      const named = { ...manifest.dependencies, ...manifest.peerDependencies };
      expect(named['@skillrl/cli'], manifest.name).toBeUndefined();
      // create-skillrl writes `@skillrl/cli` into a scaffold's devDependencies, as a string.
      if (manifest.name === 'create-skillrl') continue;
      for (const file of sources(join(root, 'packages', dir, 'src'))) {
        expect(readFileSync(file, 'utf8'), file).not.toMatch(/from ['"]@skillrl\/cli/);
      }
    }
  });

  it('nothing depends on eval but the CLI and the meta-package: the orchestrator never names it (no cycle)', () => {
    for (const { dir, manifest } of packages) {
      if (['skillrl', '@skillrl/cli', '@skillrl/eval'].includes(manifest.name)) continue;
      const named = { ...manifest.dependencies, ...manifest.peerDependencies };
      expect(named['@skillrl/eval'], manifest.name).toBeUndefined();
      for (const file of sources(join(root, 'packages', dir, 'src'))) {
        expect(readFileSync(file, 'utf8'), file).not.toMatch(/from ['"]@skillrl\/eval/);
      }
    }
  });

  it('no algorithm package names a task adapter, and adapters never name each other', () => {
    const tasks = [...ours].filter((n) => n.startsWith('@skillrl/task-'));
    for (const { manifest } of packages) {
      const named = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
      if (['@skillrl/advantage', '@skillrl/curriculum', '@skillrl/skill-generator'].includes(manifest.name)) {
        expect(
          named.filter((n) => tasks.includes(n)),
          manifest.name,
        ).toEqual([]);
      }
      if (manifest.name.startsWith('@skillrl/task-')) {
        expect(
          named.filter((n) => tasks.includes(n) && n !== manifest.name),
          manifest.name,
        ).toEqual([]);
      }
    }
  });

  it('tfjs is named only by tensor-ops, policy-tfjs, the step editor (skill-generator) and the meta-package', () => {
    const tfjsUsers = packages
      .filter(({ manifest }) =>
        Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).some((n) =>
          n.startsWith('@tensorflow/'),
        ),
      )
      .map(({ manifest }) => manifest.name)
      .sort();
    expect(tfjsUsers).toEqual([
      '@skillrl/policy-tfjs',
      '@skillrl/skill-generator',
      '@skillrl/tensor-ops',
      'skillrl',
    ]);
    const generator = packages.find(({ manifest }) => manifest.name === '@skillrl/skill-generator')?.manifest;
    expect(generator?.peerDependenciesMeta?.['@tensorflow/tfjs']?.optional).toBe(true);
  });

  it("the run directory's files are the ones the page lists", () => {
    const block = doc.slice(doc.indexOf('runs/<name>/'), doc.indexOf('```', doc.indexOf('runs/<name>/')));
    for (const name of [
      'run.json',
      'config.json',
      'overrides.jsonl',
      'events.jsonl',
      'rollouts.jsonl',
      'advantages.jsonl',
      'units.jsonl',
      'candidates.jsonl',
      'bank.jsonl',
      'segments/',
      'checkpoints/',
      'summary.json',
      'report.html',
    ]) {
      expect(block, name).toContain(name);
    }
  });
});

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|cts|js|mjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}
