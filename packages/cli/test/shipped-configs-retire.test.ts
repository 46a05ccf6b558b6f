import { join } from 'node:path';
import { RUN_TEMPLATES } from 'create-skillrl';
import { describe, expect, it } from 'vitest';
import { CLI, linkInstall, nodeSync, tempDir } from './support.js';

// Papercut: the shipped internalize-household config and the adapter scaffold's run.yaml warned on their first
// check that no skill type could ever retire (a validation too small for SKILLC's retirement bound). Every
// shipped config, as `skillrl init run` writes it, and both scaffolds, built as their next steps build them,
// check without that warning.

const RETIRE = /can (ever|never) retire/;
const env = { ...process.env, OPENAI_API_KEY: 'sk-test-not-used-0123456789' };

const skillrl = (args: string[], cwd: string) => nodeSync([CLI, ...args], cwd, { env });

describe('the shipped configs and scaffolds check without a retirement warning', () => {
  it('every run template (skillrl init run, then skillrl check)', () => {
    const dir = tempDir('templates-retire');
    for (const { name } of RUN_TEMPLATES) {
      const file = join(dir, name, `${name}.yaml`);
      const init = skillrl(['init', 'run', file, '--template', name], dir);
      expect(init.code, `${name}: ${init.err}`).toBe(0);
      const check = skillrl(['check', file], join(dir, name));
      expect(check.code, `${name}: ${check.out}${check.err}`).toBe(0);
      expect(check.err, name).not.toMatch(RETIRE);
    }
  }, 180_000);

  it('both scaffolds (skillrl init adapter|estimator, built, then skillrl check run.yaml)', () => {
    const dir = tempDir('scaffolds-retire');
    for (const kind of ['adapter', 'estimator']) {
      const target = join(dir, `my-${kind}`);
      expect(skillrl(['init', kind, target], dir).code).toBe(0);
      linkInstall(target);
      const build = nodeSync([join(target, 'node_modules', 'tsup', 'dist', 'cli-default.js')], target);
      expect(build.code, build.err).toBe(0);
      const check = skillrl(['check', 'run.yaml'], target);
      expect(check.code, `${kind}: ${check.out}${check.err}`).toBe(0);
      expect(check.err, kind).not.toMatch(RETIRE);
    }
  }, 180_000);
});
