/**
 * A skill: a reusable natural-language procedure, serialised as an Agent Skills `SKILL.md`
 * (YAML frontmatter + markdown body).
 */
export interface Skill {
  /** 1–64 characters of `[a-z0-9-]`, no leading, trailing or doubled hyphen. */
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
}

/** How a trajectory records the skill it ran under, without copying the text into every rollout. */
export interface SkillRef {
  name: string;
  /** Content hash of the formatted SKILL.md (see `skillHash`). */
  hash?: string;
}
