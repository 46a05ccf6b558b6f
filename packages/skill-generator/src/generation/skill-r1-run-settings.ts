/** The run-shape fields of a config's `evolve` section that Skill-R1's loop reads (all optional there). */
export interface SkillR1RunSection {
  variant?: 'skill-r1' | 'no-skill' | 'vanilla-grpo';
  mode?: 'inference' | 'grpo';
  generations?: number;
  candidates?: number;
  episodes?: number;
  lambda?: number;
  finalEpisodes?: number;
  finalPaired?: boolean;
  initialSkill?: 'adapter' | 'none' | { path: string };
  proposalRetries?: number;
}

/** Those fields with every default applied and each variant's fixed values in place. */
export interface SkillR1RunSettings {
  variant: 'skill-r1' | 'no-skill' | 'vanilla-grpo';
  mode: 'inference' | 'grpo';
  /** Generations G after generation 0 (s0): 0 for `no-skill`, 1 for `vanilla-grpo`. */
  generations: number;
  /** Candidates K per task and generation. */
  candidates: number;
  /** Task-model episodes M per candidate. */
  episodes: number;
  /** Weight λ of the inter-generation advantage: 0 for `vanilla-grpo` (A_intra only). */
  lambda: number;
  /** Whether the loop adds A_inter at all (every variant but `vanilla-grpo`). */
  interGeneration: boolean;
  finalEpisodes: number;
  /** The final evaluation runs each task without its skill too (a skill's measured utility). */
  finalPaired: boolean;
  initialSkill: 'adapter' | 'none' | { path: string };
  /** Generation 0 runs the starting skill s0 (every variant with an editor, unless `initialSkill: none`). */
  useS0: boolean;
  proposalRetries: number;
  /** A skill editor proposes candidates (every variant but `no-skill`). */
  edits: boolean;
  /** The editor is trained after each generation (`mode: grpo`). */
  trainsEditor: boolean;
  /** The run's method label in its manifest: `evolve:inference`, `evolve:grpo`, `evolve:no-skill`, … */
  label: string;
  /** The estimator the loop scores with unless the config names one. */
  estimator: string;
}

/**
 * The defaults of a Skill-R1-family run (arXiv 2605.09359's loop at a laptop's budget: G = 3 generations of
 * K = 4 candidates × M = 2 episodes, λ = 1): one home, read by the run.
 */
export const SKILL_R1_RUN_DEFAULTS = {
  variant: 'skill-r1',
  mode: 'inference',
  generations: 3,
  candidates: 4,
  episodes: 2,
  lambda: 1,
  finalEpisodes: 0,
  initialSkill: 'adapter',
  proposalRetries: 2,
  estimator: 'skill-r1',
} as const;

/**
 * A config's `evolve` section with the defaults applied. The baselines fix what defines them: `no-skill`
 * runs no generation after s0's place and no skill; `vanilla-grpo` one generation scored within it (G = 1,
 * λ = 0). Every variant with an editor starts from s0, so the rows differ in the method, not the start.
 */
export function skillR1RunSettings(section: SkillR1RunSection = {}): SkillR1RunSettings {
  const variant = section.variant ?? SKILL_R1_RUN_DEFAULTS.variant;
  const finalEpisodes = section.finalEpisodes ?? SKILL_R1_RUN_DEFAULTS.finalEpisodes;
  const initialSkill = section.initialSkill ?? SKILL_R1_RUN_DEFAULTS.initialSkill;
  const mode = section.mode ?? SKILL_R1_RUN_DEFAULTS.mode;
  return {
    variant,
    mode,
    generations:
      variant === 'skill-r1'
        ? (section.generations ?? SKILL_R1_RUN_DEFAULTS.generations)
        : variant === 'no-skill'
          ? 0
          : 1,
    candidates: section.candidates ?? SKILL_R1_RUN_DEFAULTS.candidates,
    episodes: section.episodes ?? SKILL_R1_RUN_DEFAULTS.episodes,
    lambda: variant === 'vanilla-grpo' ? 0 : (section.lambda ?? SKILL_R1_RUN_DEFAULTS.lambda),
    interGeneration: variant !== 'vanilla-grpo',
    finalEpisodes,
    finalPaired: finalEpisodes > 0 && variant !== 'no-skill' && section.finalPaired !== false,
    initialSkill,
    useS0: variant !== 'no-skill' && initialSkill !== 'none',
    proposalRetries: section.proposalRetries ?? SKILL_R1_RUN_DEFAULTS.proposalRetries,
    edits: variant !== 'no-skill',
    trainsEditor: variant !== 'no-skill' && mode === 'grpo',
    label: variant === 'skill-r1' ? `evolve:${mode}` : `evolve:${variant}`,
    estimator: SKILL_R1_RUN_DEFAULTS.estimator,
  };
}
