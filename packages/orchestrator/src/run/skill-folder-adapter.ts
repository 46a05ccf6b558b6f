import { dirname, resolve as resolvePath } from 'node:path';
import type { RunConfig, Skill, TaskAdapter } from '@skillrl/core';
import { InvalidArgumentError, readSkillFolder } from '@skillrl/core';

/**
 * The adapter with the config's own skills (`skills: { dir, families? }`) in place of its `skills()`: an Agent
 * Skills folder (a skill repository, `skillrl skills export`'s output, or one written by hand), read from the
 * config's folder. Each skill's families come from `families` in the config (by skill name), else from its
 * own metadata (`skillrl.families`); a skill with none is general. Evolve's starting skills, internalize's
 * skills and eval's with-skill side all read `adapter.skills()`, so all of them take the folder's.
 */
export function withSkillFolder(
  adapter: TaskAdapter,
  config: RunConfig,
  configPath: string,
  onWarning?: (message: string) => void,
): TaskAdapter {
  const spec = config.skills;
  if (!spec) return adapter;
  // `lenient`: published skills' client fields are warnings (kept, written back), not errors.
  const read = readSkillFolder(resolvePath(dirname(configPath), spec.dir), 'skills.dir', {
    ...(spec.lenient
      ? { lenient: true, onWarning: (line: string) => onWarning?.(`skills.dir: ${line}`) }
      : {}),
  });
  const skills: Skill[] = read.map((skill) => {
    const families = spec.families?.[skill.name];
    return families ? { ...skill, families: [...families] } : skill;
  });
  for (const [name, families] of Object.entries(spec.families ?? {})) {
    if (!skills.some((s) => s.name === name)) {
      throw new InvalidArgumentError('skills.families', `no skill named "${name}" in ${spec.dir}`);
    }
    const unknown = families.filter((f) => !adapter.families.includes(f));
    if (unknown.length > 0) {
      throw new InvalidArgumentError(
        `skills.families.${name}`,
        `${unknown.join(', ')} not among ${adapter.name}'s families (${adapter.families.join(', ')})`,
      );
    }
  }
  // Everything else is the adapter's own, its methods called on it (a class with private fields works too).
  return new Proxy(adapter, {
    get(target, prop) {
      if (prop === 'skills') return () => skills;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
