// `pnpm release:dry`: what `pnpm release` (build, then `changeset publish`) would publish, without publishing
// anything or changing the repository:
//   1. copies the working tree (tracked and untracked, not ignored, files) to a temporary folder outside the
//      repository, with links to the installed dependencies, and runs `changeset version` there: the version
//      each package would publish at, and the CHANGELOG.md it would carry;
//   2. checks the changesets `fixed` group: every package create-skillrl embeds the version of
//      (scaffold-versions.config.ts) releases with create-skillrl, at one version;
//   3. builds the versioned copy (as `pnpm release` would build after `changeset version`; `--no-build` packs the
//      repository's current dist/ instead, and skips the embedded-version checks) and packs every publishable
//      package: each tarball at its new version, no `workspace:` range, every range on a package of this
//      release satisfied by the version it publishes at, no source map, every file that main/module/types/bin/
//      exports name present;
//   4. installs all tarballs together with npm into a fresh folder outside the repository and checks require()
//      and import() of every package and subpath export, the CLIs' --version, and create-skillrl's scaffold
//      versions (the new ones);
//   5. prints a table (package, current → new version, tarball size, files, total) and what `changeset publish`
//      would publish, and exits 1 naming what failed.
// Offline except for the npm registry (third-party dependencies of the install). About 2 to 3 minutes.
// Usage: node scripts/release-dry.mjs [--keep] [--no-build]
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
const build = !process.argv.includes('--no-build');
const work = mkdtempSync(join(tmpdir(), 'skillrl-release-dry-'));
const started = Date.now();
const failures = [];
const notes = [];

// npm must not see the settings pnpm passes to scripts it runs (npm_config_*); a release build has no maps.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !/^(npm_|pnpm_|PNPM_)/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'SKILLRL_SOURCEMAPS',
  ),
);

function run(cmd, args, { cwd, timeout = 300_000 } = {}) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(
      `${cmd} ${args.join(' ')} (in ${cwd}) ${r.error ? r.error.message : `exited ${r.status ?? r.signal}`}:\n${tail}`,
    );
  }
  return r;
}

function fail(message) {
  failures.push(message);
  console.log(`  FAIL  ${message.replace(/\n/g, '\n        ')}`);
}

function step(title) {
  console.log(`\n${title} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The publishable packages (packages/*, not private): folder name, name, version. */
function publishable(base) {
  const out = [];
  for (const dir of readdirSync(join(base, 'packages')).sort()) {
    const file = join(base, 'packages', dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = readJson(file);
    if (!pkg.private) out.push({ dir, name: pkg.name, version: pkg.version, pkg });
  }
  return out;
}

// --- semver, as far as this release's ranges need it (^, ~, comparators, x, *, ||) ---
function parseVersion(v) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
  return m ? { major: +m[1], minor: +m[2], patch: +m[3], pre: m[4] ?? '' } : undefined;
}
function compare(a, b) {
  for (const k of ['major', 'minor', 'patch']) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre === b.pre) return 0;
  if (!a.pre) return 1;
  if (!b.pre) return -1;
  return a.pre < b.pre ? -1 : 1;
}
/** Whether `version` satisfies `range`; undefined when the range is of a form this does not read. */
function satisfies(version, range) {
  const v = parseVersion(version);
  if (!v) return undefined;
  const comparator = (c) => {
    if (c === '*' || c === '' || c === 'x' || c === 'latest') return true;
    const m = /^(\^|~|>=|<=|>|<|=)?\s*v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(-[0-9A-Za-z.-]+)?$/.exec(
      c,
    );
    if (!m) return undefined;
    const [, op = '', M, mi, pa, pre] = m;
    const wild = (s) => s === undefined || s === 'x' || s === '*';
    if (wild(M)) return true;
    const base = {
      major: +M,
      minor: wild(mi) ? 0 : +mi,
      patch: wild(pa) ? 0 : +pa,
      pre: pre ? pre.slice(1) : '',
    };
    const at = compare(v, base);
    const below = (upper) => compare(v, { ...upper, pre: '' }) < 0;
    if (op === '^') {
      if (base.major > 0 || wild(mi)) return at >= 0 && below({ major: base.major + 1, minor: 0, patch: 0 });
      if (base.minor > 0 || wild(pa)) return at >= 0 && below({ major: 0, minor: base.minor + 1, patch: 0 });
      return at >= 0 && below({ major: 0, minor: 0, patch: base.patch + 1 });
    }
    if (op === '~' || (op === '' && (wild(mi) || wild(pa)))) {
      const upper = wild(mi)
        ? { major: base.major + 1, minor: 0, patch: 0 }
        : { major: base.major, minor: base.minor + 1, patch: 0 };
      return at >= 0 && below(upper);
    }
    if (op === '>=') return at >= 0;
    if (op === '>') return at > 0;
    if (op === '<=') return at <= 0;
    if (op === '<') return at < 0;
    return at === 0;
  };
  let readable = true;
  const any = range.split('||').some((set) => {
    const parts = set
      .trim()
      .replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/);
    return parts.every((c) => {
      const r = comparator(c);
      if (r === undefined) readable = false;
      return r === true;
    });
  });
  return any ? true : readable ? false : undefined;
}

/** Every file a manifest's main/module/types/bin/exports names (wildcard subpaths are not listed). */
function namedFiles(manifest) {
  const files = new Set();
  const add = (p) => {
    if (typeof p === 'string' && !p.includes('*')) files.add(p.replace(/^\.\//, ''));
  };
  for (const k of ['main', 'module', 'types', 'typings']) add(manifest[k]);
  if (typeof manifest.bin === 'string') add(manifest.bin);
  else for (const p of Object.values(manifest.bin ?? {})) add(p);
  const walk = (node) => {
    if (typeof node === 'string') add(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(manifest.exports);
  return [...files];
}

/** Each subpath export with the ways it loads: require() and/or import(), and whether it is JSON. */
function loadTargets(manifest) {
  const exp = manifest.exports;
  if (exp === undefined) return [{ spec: manifest.name, require: true, import: true, json: false }];
  const entries =
    typeof exp === 'string' || Object.keys(exp).every((k) => !k.startsWith('.')) ? { '.': exp } : exp;
  const out = [];
  for (const [subpath, target] of Object.entries(entries)) {
    if (subpath === './package.json' || subpath.includes('*') || target === null) continue;
    const spec = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    const conditions = typeof target === 'object' && !Array.isArray(target) ? Object.keys(target) : [];
    const anyCondition =
      conditions.length === 0 || conditions.includes('default') || conditions.includes('node');
    out.push({
      spec,
      require: anyCondition || conditions.includes('require'),
      import: anyCondition || conditions.includes('import'),
      json: typeof target === 'string' && target.endsWith('.json'),
    });
  }
  return out;
}

const formatBytes = (n) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(1)} kB`;

// ---------------------------------------------------------------------------------------------------------
console.log(`release-dry: work folder ${work}${build ? '' : ' (--no-build: the repository’s dist/)'}`);
const current = publishable(root);
const copy = join(work, 'repo');
const tarballs = join(work, 'tarballs');
const install = join(work, 'install');
mkdirSync(tarballs);

try {
  // 1. A versioned copy of the working tree.
  step('1. copy the working tree and run changeset version there');
  const files = run('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root })
    .stdout.split('\0')
    .filter(Boolean);
  for (const f of files) {
    const src = join(root, f);
    if (!existsSync(src) || statSync(src).isDirectory()) continue; // deleted, or a nested repository
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    cpSync(src, join(copy, f), { verbatimSymlinks: true });
  }
  // The installed dependencies: the root's by link (pnpm keeps its own run state in a real folder), each
  // package's node_modules copied as the links it is, so workspace links resolve inside the copy.
  mkdirSync(join(copy, 'node_modules'));
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (/^\.pnpm-(task-run-state|workspace-state)/.test(entry)) continue;
    symlinkSync(join(root, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  // Only the packages' (the examples are not built; the byo ones hold hundreds of MB of their own).
  for (const name of readdirSync(join(root, 'packages'))) {
    const nm = join(root, 'packages', name, 'node_modules');
    if (!existsSync(nm) || !existsSync(join(copy, 'packages', name))) continue;
    cpSync(nm, join(copy, 'packages', name, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (s) => !/[\\/]node_modules[\\/](\.vite|\.vite-temp|\.cache)$/.test(s),
    });
  }
  const pending = readdirSync(join(copy, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  const changesetBin = join(
    dirname(createRequire(join(root, 'package.json')).resolve('@changesets/cli/package.json')),
    'bin.js',
  );
  run(process.execPath, [changesetBin, 'version'], { cwd: copy });
  const next = new Map(publishable(copy).map((p) => [p.name, p]));
  const newVersion = (name) => next.get(name)?.version;
  console.log(
    `  ok    ${pending.length} changesets applied; ${current.filter((p) => newVersion(p.name) !== p.version).length} of ${current.length} packages change version`,
  );
  for (const p of current) if (!next.has(p.name)) fail(`${p.name}: not publishable after changeset version`);

  // 2. The fixed group: create-skillrl embeds these packages' versions at build time.
  step('2. the changesets fixed group holds what create-skillrl embeds');
  const config = readJson(join(root, '.changeset', 'config.json'));
  const embeddedDirs = [
    ...readFileSync(join(root, 'packages/create-skillrl/scaffold-versions.config.ts'), 'utf8').matchAll(
      /version\('\.\.\/([\w-]+)\/package\.json'\)/g,
    ),
  ].map((m) => m[1]);
  const embedded = [
    'create-skillrl',
    ...embeddedDirs.map((d) => current.find((p) => p.dir === d)?.name ?? `packages/${d}`),
  ];
  const group = (config.fixed ?? []).find((g) => g.includes('create-skillrl'));
  const missing = embedded.filter((n) => !group?.includes(n));
  if (embeddedDirs.length === 0) fail('scaffold-versions.config.ts names no package: the pattern is stale');
  else if (missing.length > 0)
    fail(`.changeset/config.json: fixed group with create-skillrl lacks ${missing.join(', ')}`);
  else {
    const versions = new Set(group.map(newVersion));
    if (versions.size !== 1)
      fail(`fixed group at several versions: ${group.map((n) => `${n}@${newVersion(n)}`).join(', ')}`);
    else console.log(`  ok    ${group.join(', ')} all at ${[...versions][0]}`);
  }

  // 3. Build the copy and pack every publishable package.
  step(build ? '3. build the versioned copy and pack' : '3. pack (the repository’s dist/)');
  if (build) {
    run('pnpm', ['-r', '--filter', './packages/*', '--workspace-concurrency=2', 'run', 'build'], {
      cwd: copy,
      timeout: 600_000,
    });
  } else {
    for (const p of current) {
      const dist = join(root, 'packages', p.dir, 'dist');
      if (existsSync(dist))
        cpSync(dist, join(copy, 'packages', p.dir, 'dist'), { recursive: true, verbatimSymlinks: true });
    }
  }
  const packed = [];
  const publishedVersions = new Map(current.map((p) => [p.name, newVersion(p.name)]));
  for (const p of current) {
    const dir = join(copy, 'packages', p.dir);
    const before = new Set(readdirSync(tarballs));
    try {
      run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir });
    } catch (error) {
      fail(`${p.name}: pnpm pack failed: ${error.message}`);
      continue;
    }
    const added = readdirSync(tarballs).filter((f) => !before.has(f));
    if (added.length !== 1) {
      fail(`${p.name}: pnpm pack wrote ${added.length} files`);
      continue;
    }
    const tgz = join(tarballs, added[0]);
    const listing = run('tar', ['-tzf', tgz])
      .stdout.split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/^package\//, ''));
    const raw = run('tar', ['-xzOf', tgz, 'package/package.json']).stdout;
    const manifest = JSON.parse(raw);
    const row = {
      ...p,
      next: manifest.version,
      tgz,
      bytes: statSync(tgz).size,
      files: listing.length,
      manifest,
    };
    packed.push(row);
    const problems = [];
    if (manifest.version !== newVersion(p.name))
      problems.push(`packed at ${manifest.version}, changeset version gave ${newVersion(p.name)}`);
    if (raw.includes('workspace:')) problems.push('a workspace: range survived packing');
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
      for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
        const version = publishedVersions.get(dep);
        if (version === undefined) continue;
        const ok = satisfies(version, range);
        if (ok === undefined) problems.push(`${field}.${dep}: cannot read the range "${range}"`);
        else if (!ok) problems.push(`${field}.${dep} "${range}" does not accept ${dep}@${version}`);
      }
    }
    const maps = listing.filter((f) => f.endsWith('.map'));
    if (maps.length > 0)
      problems.push(`${maps.length} source maps (${maps[0]}, ...): build without SKILLRL_SOURCEMAPS`);
    for (const f of namedFiles(manifest))
      if (!listing.includes(f)) problems.push(`${f} is named but not packed`);
    if (problems.length > 0) fail(`${p.name}: ${problems.join('; ')}`);
  }
  console.log(`  ok    ${packed.length} tarballs, ${formatBytes(packed.reduce((a, r) => a + r.bytes, 0))}`);

  // 4. Install them all together, outside the repository, and load every entry point.
  step('4. npm install every tarball into a fresh folder; require() and import() each');
  mkdirSync(install);
  writeFileSync(
    join(install, 'package.json'),
    `${JSON.stringify({ name: 'release-dry', private: true, type: 'module' })}\n`,
  );
  let installed = false;
  try {
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packed.map((r) => r.tgz)], {
      cwd: install,
      timeout: 600_000,
    });
    installed = true;
  } catch (error) {
    fail(`npm install of the tarballs: ${error.message}`);
  }
  if (installed) {
    const targets = packed.flatMap((r) =>
      loadTargets(r.manifest).map((t) => ({
        ...t,
        optionalPeers: Object.entries(r.manifest.peerDependenciesMeta ?? {})
          .filter(([, meta]) => meta?.optional)
          .map(([name]) => name),
      })),
    );
    const loader = (mode) =>
      [
        'const results = [];',
        `for (const t of ${JSON.stringify(targets)}) {`,
        `  if (!t.${mode}) continue;`,
        '  try {',
        mode === 'require'
          ? '    require(t.spec);'
          : "    await (t.json ? import(t.spec, { with: { type: 'json' } }) : import(t.spec));",
        '    results.push({ spec: t.spec, ok: true });',
        '  } catch (e) {',
        "    const missing = /Cannot find (?:module|package) '([^']+)'/.exec(e.message)?.[1];",
        "    const peer = missing && t.optionalPeers.find((p) => missing === p || missing.startsWith(p + '/'));",
        "    results.push({ spec: t.spec, ok: false, peer, error: e.message.split('\\n')[0] });",
        '  }',
        '}',
        'process.stdout.write(JSON.stringify(results));',
      ].join('\n');
    const loaded = { require: 0, import: 0 };
    const skipped = [];
    for (const mode of ['require', 'import']) {
      const file = join(install, `load-all.${mode === 'require' ? 'cjs' : 'mjs'}`);
      writeFileSync(file, loader(mode));
      let results = [];
      try {
        results = JSON.parse(run(process.execPath, [file], { cwd: install }).stdout);
      } catch (error) {
        fail(`${mode}() of every entry point: ${error.message}`);
      }
      for (const r of results) {
        if (r.ok) loaded[mode]++;
        else if (r.peer) skipped.push(`${mode}('${r.spec}') (optional peer ${r.peer} not installed)`);
        else fail(`${mode}('${r.spec}'): ${r.error}`);
      }
    }
    console.log(
      `  ok    require() of ${loaded.require}, import() of ${loaded.import} entry points${skipped.length ? `; skipped ${skipped.join(', ')}` : ''}`,
    );

    // The versions the builds embed: the CLIs' --version and create-skillrl's scaffold ranges.
    if (build) {
      const embeddedProblems = [];
      for (const r of packed) {
        const bin = r.manifest.bin;
        for (const [cmd, path] of Object.entries(typeof bin === 'string' ? { [r.name]: bin } : (bin ?? {}))) {
          const file = join(install, 'node_modules', r.name, path);
          try {
            const out = run(process.execPath, [file, '--version'], { cwd: install }).stdout.trim();
            if (!out.split(/\s+/).includes(r.next))
              embeddedProblems.push(`${r.name}'s ${cmd} --version printed "${out}", not ${r.next}`);
          } catch (error) {
            embeddedProblems.push(`${r.name}'s ${cmd} --version: ${error.message}`);
          }
        }
      }
      const script = [
        "const { SCAFFOLD_VERSIONS, CREATE_SKILLRL_VERSION } = require('create-skillrl');",
        'process.stdout.write(JSON.stringify({ SCAFFOLD_VERSIONS, CREATE_SKILLRL_VERSION }));',
      ].join('\n');
      writeFileSync(join(install, 'scaffold-versions.cjs'), script);
      try {
        const got = JSON.parse(
          run(process.execPath, [join(install, 'scaffold-versions.cjs')], { cwd: install }).stdout,
        );
        if (got.CREATE_SKILLRL_VERSION !== newVersion('create-skillrl'))
          embeddedProblems.push(
            `CREATE_SKILLRL_VERSION is ${got.CREATE_SKILLRL_VERSION}, not ${newVersion('create-skillrl')}`,
          );
        const ranges = Object.values(got.SCAFFOLD_VERSIONS ?? {}).sort();
        const expected = embedded
          .filter((n) => n !== 'create-skillrl')
          .map((n) => `^${newVersion(n)}`)
          .sort();
        if (ranges.length !== expected.length || ranges.some((r, i) => r !== expected[i]))
          embeddedProblems.push(
            `SCAFFOLD_VERSIONS ${JSON.stringify(got.SCAFFOLD_VERSIONS)}, expected ${expected.join(', ')}`,
          );
      } catch (error) {
        embeddedProblems.push(`reading create-skillrl's SCAFFOLD_VERSIONS: ${error.message}`);
      }
      if (embeddedProblems.length > 0) for (const p of embeddedProblems) fail(p);
      else
        console.log(
          `  ok    CLIs print their new versions; create-skillrl scaffolds against ${embedded
            .filter((n) => n !== 'create-skillrl')
            .map((n) => `${n}@^${newVersion(n)}`)
            .join(', ')}`,
        );
    } else {
      notes.push('--no-build: the embedded versions (CLIs, create-skillrl scaffolds) were not checked');
    }
  }

  // 5. The table and what `changeset publish` would publish.
  step('5. summary');
  const cols = [
    ['package', (r) => r.name],
    ['current → to publish', (r) => `${r.version} → ${r.next}${r.version === r.next ? ' (unchanged)' : ''}`],
    ['tarball', (r) => formatBytes(r.bytes)],
    ['files', (r) => String(r.files)],
  ];
  const rows = packed.map((r) => cols.map(([, f]) => f(r)));
  const total = [
    `total (${packed.length})`,
    '',
    formatBytes(packed.reduce((a, r) => a + r.bytes, 0)),
    String(packed.reduce((a, r) => a + r.files, 0)),
  ];
  const widths = cols.map(([h], i) => Math.max(h.length, total[i].length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(line(cols.map(([h]) => h)));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  console.log(line(total));
  console.log(
    `\nchangeset publish would publish ${packed.length} packages (every public one whose version is not on the registry yet; nothing is published so far), each with no workspace: range${failures.some((f) => f.includes('workspace:')) ? ' — EXCEPT as reported above' : ''}:`,
  );
  console.log(`  ${packed.map((r) => `${r.name}@${r.next}`).join('\n  ')}`);
  if (keep) console.log(`(tarballs in ${tarballs})`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

for (const n of notes) console.log(`note: ${n}`);
const seconds = ((Date.now() - started) / 1000).toFixed(0);
if (keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`\nrelease-dry: ${failures.length} problem(s) in ${seconds} s:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(`\nrelease-dry: ok in ${seconds} s`);
