/**
 * A skill: a reusable natural-language procedure, serialised as an Agent Skills `SKILL.md`
 * (YAML frontmatter + markdown body).
 */
export interface Skill {
  /**
   * 1–64 characters (code points, after NFKC) of Unicode lowercase letters, digits and hyphens, no leading,
   * trailing or doubled hyphen. Kept as written; the rules are checked on its NFKC form.
   */
  name: string;
  /** 1–1024 characters: what the skill does and when to use it. */
  description: string;
  /** Markdown instructions. */
  body: string;
  /** The task families (skill types) this skill is for; stored in the frontmatter metadata. */
  families?: string[];
  license?: string;
  /** Environment requirements, at most 500 characters. */
  compatibility?: string;
  /** String-to-string map, as the Agent Skills format defines it. */
  metadata?: Record<string, string>;
  /** Pre-approved tools (the `allowed-tools` frontmatter field, space-separated on disk). */
  allowedTools?: string[];
  /**
   * Frontmatter fields outside the Agent Skills spec that a client added (`disable-model-invocation`,
   * `argument-hint`, `version`, …), kept by a lenient parse (`parseSkill(text, { lenient: true })`) with their
   * YAML values read as strings, and written back by `formatSkill` after the spec's fields. Strict validation
   * refuses a skill that has any (rule `unknown-field`).
   */
  extraFields?: Record<string, SkillFieldValue>;
}

/** A frontmatter value as skillrl reads it: every YAML scalar is a string (as skills-ref reads them). */
export type SkillFieldValue = string | SkillFieldValue[] | { [key: string]: SkillFieldValue };

/** How a trajectory records the skill it ran under, without copying the text into every rollout. */
export interface SkillRef {
  name: string;
  /** Content hash of the formatted SKILL.md (see `skillHash`). */
  hash?: string;
}
