#!/usr/bin/env node
// Type-checks every package and example in one TypeScript program: the files each one's tsconfig.json includes,
// under the compiler options they all share (tsconfig.base.json). One program reads @types/node, the libs and
// every built package's declarations once, where a `tsc --noEmit` per package reads them 33 times: about 15 s
// instead of about 75 s of CPU on this repository. `pnpm --filter <pkg> typecheck` still checks one package
// alone. The packages' declarations come from their builds (dist/), so build first (`pnpm typecheck` does).
//
// A package whose tsconfig.json sets a compiler option other than rootDir, outDir or noEmit cannot share the
// program: this script says which, rather than checking it under options it does not use.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const ts = createRequire(join(root, 'package.json'))('typescript');
const SHARED_AWAY = new Set(['rootDir', 'outDir', 'noEmit']);

const include = [];
const problems = [];
for (const group of ['packages', 'examples']) {
  const base = join(root, group);
  if (!existsSync(base)) continue;
  for (const name of readdirSync(base).sort()) {
    const dir = join(base, name);
    const tsconfig = join(dir, 'tsconfig.json');
    const pkgFile = join(dir, 'package.json');
    if (!existsSync(tsconfig) || !existsSync(pkgFile)) continue;
    if (!JSON.parse(readFileSync(pkgFile, 'utf8')).scripts?.typecheck) continue;
    const rel = relative(root, dir);
    const { config, error } = ts.readConfigFile(tsconfig, ts.sys.readFile);
    if (error) {
      problems.push(`${rel}/tsconfig.json: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
      continue;
    }
    if (config.extends !== '../../tsconfig.base.json') {
      problems.push(
        `${rel}/tsconfig.json: extends ${config.extends ?? 'nothing'}, not ../../tsconfig.base.json`,
      );
    }
    const own = Object.keys(config.compilerOptions ?? {}).filter((k) => !SHARED_AWAY.has(k));
    if (own.length > 0)
      problems.push(`${rel}/tsconfig.json: sets ${own.join(', ')} (only rootDir/outDir/noEmit may differ)`);
    for (const entry of config.include ?? []) include.push(`${rel}/${entry}`);
    for (const entry of config.exclude ?? [])
      problems.push(`${rel}/tsconfig.json: exclude (${entry}) is not supported here`);
  }
}
if (problems.length > 0) {
  process.stderr.write(
    `scripts/typecheck.mjs: these tsconfigs cannot share one program; check them alone (pnpm --filter <pkg> typecheck) or align them:\n  ${problems.join('\n  ')}\n`,
  );
  process.exit(2);
}

// The program's config lives in .cache/ (ignored), written fresh each time, so it never drifts from the packages.
mkdirSync(join(root, '.cache'), { recursive: true });
const configPath = join(root, '.cache', 'tsconfig.typecheck.json');
writeFileSync(
  configPath,
  `${JSON.stringify({ extends: '../tsconfig.base.json', compilerOptions: { noEmit: true }, include: include.map((i) => `../${i}`) }, null, 2)}\n`,
);
const parsed = ts.getParsedCommandLineOfConfigFile(
  configPath,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
if (!parsed) {
  process.stderr.write(`scripts/typecheck.mjs: TypeScript could not read ${configPath}\n`);
  process.exit(2);
}
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
if (diagnostics.length > 0) {
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.stderr.write(`\n${diagnostics.length} type error(s) in ${include.length} included folders\n`);
  process.exit(1);
}
process.stdout.write(
  `typecheck: ${parsed.fileNames.length} files of ${include.length} included folders, one program, no errors\n`,
);
