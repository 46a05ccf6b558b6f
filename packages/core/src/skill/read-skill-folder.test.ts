import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkillFormatError } from '../errors/skill-format-error.js';
import { formatSkill } from './format-skill.js';
import { readSkillFolder } from './read-skill-folder.js';

const skill = (name: string) => ({ name, description: `The ${name} skill.`, body: `# ${name}\n\n- step\n` });

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-skill-folder-'));
  for (const name of ['b-skill', 'a-skill']) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'SKILL.md'), formatSkill(skill(name)));
  }
  mkdirSync(join(dir, 'not-a-skill'));
  return dir;
}

describe('readSkillFolder', () => {
  it('reads a folder of skill folders (by name), one skill folder, or one SKILL.md', () => {
    const dir = folder();
    expect(readSkillFolder(dir).map((s) => s.name)).toEqual(['a-skill', 'b-skill']);
    expect(readSkillFolder(join(dir, 'b-skill')).map((s) => s.name)).toEqual(['b-skill']);
    expect(readSkillFolder(join(dir, 'a-skill', 'SKILL.md'))[0]).toEqual(skill('a-skill'));
  });

  it("refuses a skill whose name is not its folder's (the Agent Skills rule), and a folder with no SKILL.md", () => {
    const dir = folder();
    mkdirSync(join(dir, 'wrong-folder'));
    writeFileSync(join(dir, 'wrong-folder', 'SKILL.md'), formatSkill(skill('other-name')));
    expect(() => readSkillFolder(dir)).toThrow(SkillFormatError);
    expect(() => readSkillFolder(dir)).toThrow(/must be the name of its folder/);
    expect(() => readSkillFolder(join(dir, 'not-a-skill'), 'evolve.initialSkill.path')).toThrow(
      /evolve\.initialSkill\.path.*holds no SKILL\.md/,
    );
    expect(() => readSkillFolder(join(dir, 'missing'))).toThrow(/does not exist/);
  });
});

describe('readSkillFolder: skill.md, Unicode names and lenient reading', () => {
  it('finds a lowercase skill.md, and matches names and folders after NFKC (an NFC name in an NFD folder)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-skill-folder-'));
    mkdirSync(join(dir, 'lower'));
    writeFileSync(join(dir, 'lower', 'skill.md'), formatSkill(skill('lower')));
    const nfc = 'donn\u00e9es';
    mkdirSync(join(dir, nfc.normalize('NFD')));
    writeFileSync(join(dir, nfc.normalize('NFD'), 'SKILL.md'), formatSkill(skill(nfc)));
    expect(readSkillFolder(dir).map((s) => s.name)).toEqual([nfc, 'lower']);
    expect(readSkillFolder(join(dir, 'lower', 'skill.md'))[0]!.name).toBe('lower');
  });

  it('reads client fields only when lenient, reporting each as a warning with its file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-skill-folder-'));
    mkdirSync(join(dir, 'review'));
    writeFileSync(
      join(dir, 'review', 'SKILL.md'),
      '---\nname: review\ndescription: Review code.\nallowed-tools: Read, Grep\ndisable-model-invocation: true\n---\nGo.\n',
    );
    expect(() => readSkillFolder(dir)).toThrow(/\[unknown-field\] disable-model-invocation/);
    const warnings: string[] = [];
    const [read] = readSkillFolder(dir, 'path', {
      lenient: true,
      onWarning: (m, d) => warnings.push(`${d.source.endsWith('SKILL.md')}:${m}`),
    });
    expect(read).toEqual({
      name: 'review',
      description: 'Review code.',
      allowedTools: ['Read', 'Grep'],
      extraFields: { 'disable-model-invocation': 'true' },
      body: 'Go.\n',
    });
    expect(warnings.map((w) => w.split(' ')[0])).toEqual([
      'true:[allowed-tools-format]',
      'true:[unknown-field]',
    ]);
  });
});
