import { describe, expect, it } from 'vitest';
import { extractSkillText } from './extract-skill-text.js';

const skill = '---\nname: heat-mug\ndescription: Heat a mug.\n---\n# Heat\n\n1. Open the microwave.\n';

describe('extractSkillText', () => {
  it('takes a fenced markdown block out of chatter', () => {
    const reply = `Here is the revised skill:\n\n\`\`\`markdown\n${skill}\`\`\`\n\nIt now opens the microwave first.`;
    expect(extractSkillText(reply)).toEqual({ text: skill, source: 'fence', bodyOnly: false });
  });

  it('keeps fenced code inside the skill body', () => {
    const body =
      '---\nname: run-tests\ndescription: Run tests.\n---\n1. Run:\n```bash\nnpm test\n```\n2. Read the output.\n';
    const reply = `Sure.\n\`\`\`md\n${body}\`\`\`\nDone.`;
    expect(extractSkillText(reply)?.text).toBe(body);
    const tilde = `~~~~markdown\n---\nname: a\ndescription: d\n---\n\`\`\`\nplain fence\n\`\`\`\nafter\n~~~~\n`;
    expect(extractSkillText(tilde)?.text).toBe(
      '---\nname: a\ndescription: d\n---\n```\nplain fence\n```\nafter\n',
    );
    const longer = '````\n---\nname: a\ndescription: d\n---\n```\nx\n```\ntail\n````\nbye';
    expect(extractSkillText(longer)?.text).toBe('---\nname: a\ndescription: d\n---\n```\nx\n```\ntail\n');
  });

  it('prefers a labelled block holding frontmatter over other blocks', () => {
    const reply = `Old:\n\`\`\`python\nprint(1)\n\`\`\`\nNew:\n\`\`\`markdown\n${skill}\`\`\``;
    expect(extractSkillText(reply)?.text).toBe(skill);
  });

  it('takes the last skill block, after dropping the reasoning', () => {
    const old = skill.replace('heat-mug', 'old-skill');
    const reply = `<think>Draft:\n\`\`\`markdown\n${old.replace('old-skill', 'draft')}\`\`\`\n</think>\nThe old one was:\n\`\`\`markdown\n${old}\`\`\`\nRevised:\n\`\`\`markdown\n${skill}\`\`\``;
    expect(extractSkillText(reply)?.text).toBe(skill);
    expect(extractSkillText('<think>just thinking, cut off by max tokens')).toBeUndefined();
  });

  it('finds raw frontmatter after chatter, and CRLF replies', () => {
    expect(extractSkillText(`Revised skill below.\n\n${skill}`)).toEqual({
      text: skill,
      source: 'raw',
      bodyOnly: false,
    });
    expect(extractSkillText(skill.replace(/\n/g, '\r\n'))?.text).toBe(skill);
    // A thematic break (---) that opens no frontmatter is not one.
    expect(extractSkillText('intro\n---\nno fields here\n---\nbody')).toBeUndefined();
  });

  it('takes a fenced block or a markdown document without frontmatter as a body', () => {
    expect(extractSkillText('Try this:\n```markdown\n# Heat\n1. Open it.\n```')).toEqual({
      text: '# Heat\n1. Open it.\n',
      source: 'body',
      bodyOnly: true,
    });
    expect(extractSkillText('# Heat\n\n1. Open it.\n')).toEqual({
      text: '# Heat\n\n1. Open it.\n',
      source: 'body',
      bodyOnly: true,
    });
  });

  it('runs an unclosed block (a reply cut off by max tokens) to the end', () => {
    expect(extractSkillText(`\`\`\`markdown\n${skill}2. Put the mug`)?.text).toBe(`${skill}2. Put the mug`);
  });

  it('finds nothing in refusals, chatter and empty replies', () => {
    expect(extractSkillText('I cannot help with that.')).toBeUndefined();
    expect(extractSkillText('   \n')).toBeUndefined();
    expect(extractSkillText('')).toBeUndefined();
    expect(extractSkillText('```json\n{"name": "x"}\n```')).toBeUndefined();
  });
});
