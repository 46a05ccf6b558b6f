import type { ComponentSpec, RunConfig, TaskAdapter, TaskSelection, ValidationIssue } from '@skillrl/core';
import { skillForFamily } from '@skillrl/core';

const SECRET_OPTION =
  /^(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|authorization|secret|password)$/i;

function checkSpec(path: string, spec: unknown, issues: ValidationIssue[]): void {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return;
  const s = spec as Exclude<ComponentSpec, string>;
  if (s.name === undefined && s.package === undefined) {
    issues.push({ path, message: 'name a registered component ("name") or a package ("package"), or both' });
  }
  const options = s.options;
  if (options && typeof options === 'object') {
    for (const key of Object.keys(options)) {
      if (SECRET_OPTION.test(key)) {
        // The path stays on the parent: "<key>: <message>" would read as a credential and be redacted.
        issues.push({
          path: `${path}.options`,
          message: `holds a key named ${key}; keys do not belong in a config file. Put it in an environment variable and give that variable's name as ${key}Env (e.g. OPENAI_API_KEY)`,
        });
      }
    }
  }
}

/** The registry name a spec picks (`"tfjs"`, `{ name: "tfjs" }`); undefined for a package, which may be anything. */
function builtinName(spec: ComponentSpec | undefined): string | undefined {
  if (typeof spec === 'string') return spec;
  if (spec && typeof spec === 'object' && spec.package === undefined) return spec.name;
  return undefined;
}

/** How a spec reads in a message: `"openai"`, `package "./my-agent.mjs"`. */
function describeSpec(spec: ComponentSpec | undefined): string {
  if (spec === undefined) return 'none';
  const name = builtinName(spec);
  if (name !== undefined) return `"${name}"`;
  return `package "${(spec as { package: string }).package}"`;
}

function optionsOf(spec: ComponentSpec | undefined): Record<string, unknown> {
  if (spec && typeof spec === 'object' && spec.options && typeof spec.options === 'object') {
    return spec.options as Record<string, unknown>;
  }
  return {};
}

/**
 * The Tinker agent, trainer and trained editor: what they must be combined with. Their options are
 * @skillrl/trainer-tinker's to check (`checkTinkerAgentOptions` and the rest), which the component check
 * and the run call when the package is installed (call-builtin.ts).
 */
function checkTinker(config: Partial<RunConfig>, issues: ValidationIssue[]): void {
  const agent = builtinName(config.agent);
  const trainer = config.method === 'internalize' ? config.internalize?.trainer : undefined;
  if (builtinName(trainer) === 'tinker') {
    if (agent !== 'tinker') {
      issues.push({
        path: '$.internalize.trainer',
        message: `"tinker" trains the Tinker agent, whose turns record their tokens and log-probs, but agent is ${describeSpec(config.agent)}; set agent: tinker (with its baseModel and tokenizer)`,
      });
    }
  }
  const generator = config.method === 'evolve' ? config.evolve?.generator : undefined;
  if (builtinName(generator) !== 'llm-editor') return;
  const editor = optionsOf(generator);
  const spec = editor.trainer;
  if (spec === undefined) return;
  const path = '$.evolve.generator.options.trainer';
  const name = typeof spec === 'string' ? spec : (spec as { name?: unknown } | null)?.name;
  if (name !== 'tinker') {
    issues.push({
      path,
      message: `expected "tinker" or { name: tinker, options }, got ${JSON.stringify(spec)}`,
    });
    return;
  }
  if (editor.model !== undefined) {
    issues.push({
      path: '$.evolve.generator.options.model',
      message:
        'an editor trained on Tinker samples from its own training run; remove model (the trainer options name the base model)',
    });
  }
  if (
    (config.evolve?.mode ?? 'inference') !== 'grpo' &&
    (config.evolve?.variant ?? 'skill-r1') === 'skill-r1'
  ) {
    issues.push({
      path,
      message:
        'trains the editor, but evolve.mode is "inference" (the editor is never updated); set evolve.mode: grpo, or remove trainer',
    });
  }
}

/** The seed a task selection loads with (`loadTasks`: the selection's own, else the caller's default). */
const seedOf = (selection: TaskSelection, fallback: number) => selection.seed ?? fallback;

/**
 * The combinations that cannot work and are known from the config alone: a tfjs trainer with another agent,
 * `grpo` with an editor that has no `update()`, held-out tasks drawn exactly like the training tasks.
 */
function checkCombinations(config: Partial<RunConfig>, issues: ValidationIssue[]): void {
  const agent = builtinName(config.agent);
  if (config.method === 'internalize' && builtinName(config.internalize?.trainer) === 'tfjs') {
    if (agent !== undefined && agent !== 'skill-reading') {
      issues.push({
        path: '$.internalize.trainer',
        message: `"tfjs" trains the in-process skill-reading policy, but agent is ${describeSpec(config.agent)}; set agent: skill-reading, or use trainer: external to train an LLM agent elsewhere from \`skillrl export\``,
      });
    }
  }
  if (config.method !== 'evolve') return;
  const section = config.evolve ?? {};
  const variant = section.variant ?? 'skill-r1';
  if (
    variant !== 'no-skill' &&
    section.mode === 'grpo' &&
    builtinName(section.generator) === 'llm-editor' &&
    optionsOf(section.generator).trainer === undefined
  ) {
    issues.push({
      path: '$.evolve.mode',
      message:
        '"grpo" trains the editor, but "llm-editor" has no update() without a trainer (a frozen LLM); give it trainer: tinker (the editor then trains on the Tinker API), use mode: inference (and train it elsewhere from `skillrl export`), or a trainable editor: "step-editor", or a package with update()',
    });
  }
  const heldOut = section.heldOut;
  const tasks = config.tasks;
  if (heldOut && tasks && heldOut.split === tasks.split && typeof config.seed === 'number') {
    const trainSeed = seedOf(tasks, config.seed);
    // evolve loads held-out tasks with seed + 3 unless the selection names one.
    const heldSeed = seedOf(heldOut, config.seed + 3);
    // The same split and the same seed draw the same tasks (up to the smaller limit). Other seeds may
    // still meet: the adapter check loads both selections to see.
    if (heldSeed === trainSeed) {
      issues.push({
        path: '$.evolve.heldOut',
        message: `draws from the training split "${tasks.split}" with the same seed (${trainSeed}) as tasks, so it holds training tasks; use another split (e.g. valid_unseen) for evolve.heldOut.split, or another evolve.heldOut.seed`,
      });
    }
  }
}

/** The rules a JSON Schema cannot say clearly: cross-field requirements and secrets in plain text. */
export function checkConfigSemantics(config: Partial<RunConfig>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  checkSpec('$.adapter', config.adapter, issues);
  checkSpec('$.agent', config.agent, issues);
  checkSpec('$.estimator', config.estimator, issues);
  checkSpec('$.evolve.generator', config.evolve?.generator, issues);
  checkSpec('$.internalize.trainer', config.internalize?.trainer, issues);
  checkCombinations(config, issues);
  checkTinker(config, issues);
  if (config.method === 'evolve') {
    if (config.internalize !== undefined) {
      issues.push({
        path: '$.internalize',
        message: 'is only read by method "internalize"; remove it or change method',
      });
    }
    const variant = config.evolve?.variant ?? 'skill-r1';
    if (variant !== 'no-skill' && config.evolve?.generator === undefined) {
      issues.push({
        path: '$.evolve.generator',
        message: `is required for variant "${variant}" (e.g. "step-editor" offline, or "llm-editor")`,
      });
    }
    if (variant === 'vanilla-grpo' && (config.evolve?.generations ?? 1) !== 1) {
      issues.push({
        path: '$.evolve.generations',
        message: 'variant "vanilla-grpo" runs exactly one generation',
      });
    }
  }
  if (config.method === 'internalize') {
    if (config.evolve !== undefined) {
      issues.push({
        path: '$.evolve',
        message: 'is only read by method "evolve"; remove it or change method',
      });
    }
    if (config.internalize?.trainer === undefined) {
      issues.push({
        path: '$.internalize.trainer',
        message:
          'is required (e.g. "tfjs" with the "skill-reading" agent, or "tinker" with the "tinker" agent)',
      });
    }
    const ablation = config.internalize?.ablation ?? 'none';
    const variant = config.internalize?.variant ?? 'skillc';
    if (ablation !== 'none' && variant !== 'skillc') {
      issues.push({
        path: '$.internalize.ablation',
        message: `ablations modify SKILLC; variant "${variant}" takes none`,
      });
    }
  }
  return issues;
}

async function loadSome(adapter: TaskAdapter, selection: TaskSelection, seed: number, limit?: number) {
  try {
    const wanted = limit ?? selection.limit;
    return await adapter.load({
      split: selection.split,
      seed: selection.seed ?? seed,
      ...(wanted !== undefined ? { limit: wanted } : {}),
    });
  } catch {
    // A split the adapter cannot load is reported when the run loads it, with the adapter's own message.
    return undefined;
  }
}

/**
 * The combinations that cannot work with this adapter, found by asking it (nothing runs: at most a few
 * tasks are loaded and one environment is created): a step editor without a step vocabulary, the
 * skill-reading agent without admissible actions, SKILLC without a skill for any family, held-out tasks that
 * are training tasks. `skillrl check` reports them, and `run` before anything is written.
 */
export async function checkConfigAgainstAdapter(
  config: RunConfig,
  adapter: TaskAdapter,
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const name = `adapter ${describeSpec(config.adapter)}${builtinName(config.adapter) === adapter.name ? '' : ` (${adapter.name})`}`;
  const section = config.evolve ?? {};
  const editing = config.method === 'evolve' && (section.variant ?? 'skill-r1') !== 'no-skill';
  if (
    editing &&
    builtinName(section.generator) === 'step-editor' &&
    typeof adapter.stepVocabulary !== 'function'
  ) {
    issues.push({
      path: '$.evolve.generator',
      message: `"step-editor" edits skills with the adapter's step vocabulary, but ${name} has no stepVocabulary(); use generator: llm-editor, or an adapter with stepVocabulary()`,
    });
  }
  if (builtinName(config.agent) === 'skill-reading') {
    const [task] = (await loadSome(adapter, config.tasks, config.seed, 1)) ?? [];
    if (task) {
      let actions: unknown;
      try {
        actions = (await adapter.createEnvironment(task)).admissibleActions;
      } catch {
        actions = 'unknown';
      }
      if (actions === undefined) {
        issues.push({
          path: '$.agent',
          message: `"skill-reading" chooses among admissible actions, but the environments of ${name} have no admissibleActions() (free-text answers); use agent: openai (an LLM), or an adapter whose environments list their actions`,
        });
      }
    }
  }
  if (config.method === 'internalize' && (config.internalize?.variant ?? 'skillc') !== 'grpo') {
    const bank = typeof adapter.skills === 'function' ? await adapter.skills() : [];
    if (!adapter.families.some((family) => skillForFamily(bank, family))) {
      const variant = config.internalize?.variant ?? 'skillc';
      issues.push({
        path: '$.adapter',
        message: `internalize variant "${variant}" pairs rollouts with and without each family's skill, but ${name} has no skill for any of its families (${adapter.families.join(', ') || 'none'}); give the adapter skills (its skills() or skill options), or use internalize.variant: grpo`,
      });
    }
  }
  if (config.method === 'evolve' && section.heldOut) {
    const training = await loadSome(adapter, config.tasks, config.seed);
    const held = await loadSome(adapter, section.heldOut, config.seed + 3);
    const ids = new Set((training ?? []).map((t) => t.id));
    const shared = (held ?? []).filter((t) => ids.has(t.id));
    if (shared.length > 0) {
      issues.push({
        path: '$.evolve.heldOut',
        message: `${shared.length} held-out task${shared.length === 1 ? ' is' : 's are'} also training tasks (${shared
          .slice(0, 3)
          .map((t) => t.id)
          .join(
            ', ',
          )}${shared.length > 3 ? ', …' : ''}); use another split (e.g. valid_unseen) or another seed for evolve.heldOut`,
      });
    }
  }
  return issues;
}
