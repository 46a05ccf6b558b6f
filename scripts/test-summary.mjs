// Sums vitest's JSON reports (written by every package to .vitest/results.json), and the pack-and-install
// check's (.packed-check/results.json), into the plain line CI reads: "N passed, N failed". A package with a test script but no report counts as one failure, so a
// suite that crashed before reporting cannot pass silently.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];

for (const group of ['packages', 'examples']) {
  const base = join(root, group);
  if (!existsSync(base)) continue;
  for (const name of readdirSync(base).sort()) {
    const pkgFile = join(base, name, 'package.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
    if (!pkg.scripts?.test) continue;
    const report = join(base, name, '.vitest', 'results.json');
    if (!existsSync(report)) {
      failed += 1;
      rows.push(`${pkg.name}: no test report (the suite did not run or crashed)`);
      continue;
    }
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const p = r.numPassedTests ?? 0;
    // A test file that failed without a failing test (it did not load, or a hook threw) counts as one failure.
    const f = (r.numFailedTests ?? 0) + countFilesFailedWithoutFailedTests(r);
    const s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    passed += p;
    failed += f;
    skipped += s;
    rows.push(`${pkg.name}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
  }
}

// The pack-and-install check (scripts/check-packed.mjs) counts each of its checks as a test. With --packed
// (as .ci/run calls it) a missing report is one failure: the check crashed or did not run.
const packedDir = join(root, '.packed-check');
const packedReports = existsSync(packedDir)
  ? readdirSync(packedDir)
      .filter((f) => /^results(-[\w.-]+)?\.json$/.test(f))
      .sort()
  : [];
for (const file of packedReports) {
  const r = JSON.parse(readFileSync(join(packedDir, file), 'utf8'));
  passed += r.passed ?? 0;
  failed += r.failed ?? 0;
  rows.push(
    `pack-and-install check${r.node ? ` (Node ${r.node})` : ''}: ${r.passed ?? 0} passed, ${r.failed ?? 0} failed (${r.seconds ?? '?'} s)`,
  );
}
// With --packed (as .ci/run calls it) a missing report is one failure: the check crashed or did not run; with
// SKILLRL_NODE24 set, so is a missing Node 24 pass.
const expected = ['results.json', ...(process.env.SKILLRL_NODE24 ? ['results-node24.json'] : [])];
if (process.argv.includes('--packed')) {
  for (const file of expected.filter((f) => !packedReports.includes(f))) {
    failed += 1;
    rows.push(`pack-and-install check: no ${file} (scripts/check-packed.mjs did not run or crashed)`);
  }
}

function countFilesFailedWithoutFailedTests(r) {
  // vitest's numFailedTestSuites counts describe blocks too, so files are read directly.
  return (r.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
}

for (const row of rows) console.log(`  ${row}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
