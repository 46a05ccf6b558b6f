// Run directories in the run store's real format, written with core's own writer (openRunStore: JSONL streams,
// gzip segments, atomic files), with made-up but well-formed content: the bench's 100 runs and its run of 100k
// rollouts, and the browser test's fixtures (a SKILLC run and its GRPO control sharing held-out tasks, a
// Skill-R1 run with a bank, a run whose content holds markup, a 2 000-step trajectory). Seeded: the same
// options write the same records.
import { createRng, formatSkill, openRunStore } from '@skillrl/core';

const FAMILIES = ['pick', 'clean', 'heat', 'cool', 'look', 'pick-two'];

/** A clock that moves forward by hand: records carry plausible times without waiting for them. */
function clock(startMs) {
  let t = startMs;
  return {
    now: () => new Date(t).toISOString(),
    tick: (ms) => {
      t += ms;
    },
  };
}

function observation(rng, i, bytes) {
  const base = `You arrive at cabinet ${1 + rng.int(9)}. On the cabinet you see a mug ${i}, a plate ${1 + rng.int(4)}.`;
  return base.length >= bytes
    ? base
    : base + ' You see nothing else.'.repeat(Math.ceil((bytes - base.length) / 22));
}

/**
 * One trajectory: `steps` decisions with observations of about `observationBytes`, the last one rewarded when
 * it passed. `markup` puts HTML into the observation and the action (a page must show it as text).
 */
export function makeTrajectory(
  rng,
  { id, taskId, family, condition, passed, steps = 4, observationBytes = 160, markup = false, skill },
) {
  const trajectorySteps = Array.from({ length: steps }, (_, index) => ({
    index,
    observation:
      markup && index === 0
        ? '<script>window.__xss = 1</script><img src=x onerror="window.__xss=2"> the room'
        : observation(rng, index, observationBytes),
    action:
      markup && index === 0
        ? '<b>go</b> to <script>alert(1)</script>'
        : index === steps - 1
          ? 'put mug 1 in/on cabinet 1'
          : rng.pick(['go to cabinet 1', 'take mug 1', 'look']),
    reward: index === steps - 1 && passed ? 1 : 0,
    done: index === steps - 1,
    latencyMs: 5 + rng.int(40),
    usage: { inputTokens: 200 + rng.int(100), outputTokens: 5 + rng.int(10) },
    info: { env: { won: index === steps - 1 && passed, steps: index + 1 } },
  }));
  return {
    id,
    taskId,
    family,
    condition,
    ...(condition === 1 && skill ? { skill } : {}),
    steps: trajectorySteps,
    reward: passed ? 1 : 0,
    verdict: {
      score: passed ? 1 : 0,
      passed,
      reason: passed ? 'goal reached' : `goal not reached after ${steps} steps`,
    },
    usage: { inputTokens: 250 * steps, outputTokens: 8 * steps, requests: steps },
    durationMs: 10 * steps,
  };
}

function skillOf(family, body) {
  return {
    name: `household-${family}`,
    description: `How to solve ${family} tasks in the household.`,
    body,
    families: [family],
  };
}

/**
 * A SKILLC-shaped run (`internalize`): a validation every `validateEvery` steps with per-family success and
 * the curriculum's λ / ρ / retirements, a step event per step with its rollouts, and — when `complete` — the
 * held-out `test` unit and `run:end`. `learn` sets how fast skill-free success climbs (0 for a flat control).
 * Returns the store (closed unless `keepOpen`) and a `step(t)` writer for live use.
 */
export function writeInternalizeRun(dir, options = {}) {
  const {
    runId = 'skillc',
    variant = 'skillc',
    seed = 1,
    steps = 12,
    tasksPerStep = 2,
    groupSize = 4,
    validateEvery = 4,
    families = FAMILIES,
    validationTasks = 2,
    testTasks = 12,
    trajectorySteps = 4,
    observationBytes = 160,
    learn = 0.04,
    complete = true,
    keepOpen = false,
    segmentBytes = 4 * 1024 * 1024,
    startMs = Date.parse('2026-12-01T10:00:00Z'),
    errorEvery = 0,
  } = options;
  const store = openRunStore(dir, {
    segmentBytes,
    segmentOnClose: true,
    segmentOnCloseBytes: 1024 * 1024,
    onWarning: () => {},
  });
  const rng = createRng(seed);
  const time = clock(startMs);
  const config = {
    method: 'internalize',
    seed,
    name: runId,
    adapter: 'household',
    tasks: { split: 'train', limit: 64 },
    agent: 'skill-reading',
    internalize: {
      variant,
      steps,
      tasksPerStep,
      groupSize,
      validateEvery,
      validation: { split: 'valid_seen', limit: validationTasks * families.length },
      test: { split: 'valid_unseen', limit: testTasks },
      trainer: { name: 'tfjs' },
    },
  };
  store.writeFile(
    'run.json',
    `${JSON.stringify({ runId, method: 'internalize', configPath: `${dir}/config.yaml`, components: { adapter: 'registry:household', agent: 'registry:skill-reading', estimator: `registry:${variant}`, trainer: 'registry:tfjs' } }, null, 2)}\n`,
  );
  store.writeFile('config.json', `${JSON.stringify(config, null, 2)}\n`);
  const skills = Object.fromEntries(
    families.map((f) => [
      f,
      skillOf(f, `# ${f}\n\n1. Find the object.\n2. Do the ${f} part.\n3. Put it in place.\n`),
    ]),
  );
  for (const f of families) store.writeFile(`skills/0/household-${f}/SKILL.md`, formatSkill(skills[f]));
  const emit = (event) => store.append('events', { ...event, runId, time: time.now() });
  let rolloutCount = 0;
  const rollout = (unit, taskId, family, condition, k, pSuccess) => {
    const id = `${unit}/${taskId}:c${condition}:i${k}`;
    const errored = errorEvery > 0 && ++rolloutCount % errorEvery === 0;
    const passed = !errored && rng.float() < pSuccess;
    const t = makeTrajectory(rng, {
      id,
      taskId,
      family,
      condition,
      passed,
      steps: trajectorySteps,
      observationBytes,
      skill: { name: `household-${family}`, hash: `h${family}` },
    });
    if (errored)
      t.error = {
        code: 'model',
        message: 'the model endpoint answered 503 three times (retry budget spent)',
      };
    store.append('rollouts', t);
    emit({
      type: 'rollout',
      trajectoryId: id,
      taskId,
      family,
      condition,
      reward: t.reward,
      passed,
      ...(errored ? { error: t.error.message } : {}),
    });
    time.tick(20);
    return passed;
  };
  const skillFree = (t) => Math.min(0.9, 0.1 + learn * t);
  const withSkill = () => 0.7;
  const retired = new Set();
  const validate = (t) => {
    const fam = {};
    families.forEach((f, fi) => {
      let w = 0;
      let wo = 0;
      for (let i = 0; i < validationTasks; i++) {
        const taskId = `household/valid_seen/${fi}/${i}`;
        w += rollout(`v${t}`, taskId, f, 1, 2 * i, withSkill()) ? 1 : 0;
        wo += rollout(`v${t}`, taskId, f, 0, 2 * i + 1, skillFree(t)) ? 1 : 0;
      }
      fam[f] = {
        withSkill: w / validationTasks,
        withoutSkill: wo / validationTasks,
        withSkillEpisodes: validationTasks,
        withoutSkillEpisodes: validationTasks,
        episodes: 2 * validationTasks,
      };
      if (variant === 'skillc' && t >= 2 * validateEvery && fi < Math.floor(t / (2 * validateEvery)))
        retired.add(f);
    });
    const active = families.filter((f) => !retired.has(f));
    emit({
      type: 'validation',
      step: t,
      validation: { step: t, families: fam },
      curriculum: {
        step: t,
        lambda: Object.fromEntries(
          families.map((f) => [f, retired.has(f) ? 0 : Math.max(0, 1 - t / (steps + 1))]),
        ),
        rho: Object.fromEntries(families.map((f) => [f, retired.has(f) ? 0 : 0.5 - (0.3 * t) / (steps + 1)])),
        active,
        retired: [...retired],
      },
    });
  };
  const step = (t) => {
    let with1 = 0;
    let n1 = 0;
    let with0 = 0;
    let n0 = 0;
    for (let k = 0; k < tasksPerStep; k++) {
      const fi = rng.int(families.length);
      // Distinct tasks within a step: a rollout id (unit/task:c<z>:i<k>) names one episode, as in a real run.
      const taskId = `household/train/${fi}/${t * tasksPerStep + k}`;
      for (let g = 0; g < groupSize; g++) {
        const z = g < groupSize / 2 && !retired.has(families[fi]) ? 1 : 0;
        const ok = rollout(`s${t}`, taskId, families[fi], z, g, z === 1 ? withSkill() : skillFree(t));
        if (z === 1) {
          with1 += ok ? 1 : 0;
          n1++;
        } else {
          with0 += ok ? 1 : 0;
          n0++;
        }
      }
    }
    emit({
      type: 'step',
      step: t,
      metrics: {
        success: (with1 + with0) / (n1 + n0),
        success_with: n1 ? with1 / n1 : 0,
        success_without: n0 ? with0 / n0 : 0,
        share_with: n1 / (n1 + n0),
        train_loss: 1 / (1 + t),
      },
    });
    store.append('units', { key: `s${t}`, unit: `s${t}`, rollouts: n1 + n0, errored: 0, rerun: 0 });
    if (t % validateEvery === 0) validate(t);
    time.tick(500);
  };
  const finish = () => {
    const outcomes = {};
    for (let i = 0; i < testTasks; i++) {
      const f = families[i % families.length];
      const taskId = `household/valid_unseen/${i % families.length}/${Math.floor(i / families.length)}`;
      const w = rollout('test', taskId, f, 1, 0, withSkill());
      const wo = rollout('test', taskId, f, 0, 1, skillFree(steps));
      outcomes[taskId] = { with: w ? 1 : 0, without: wo ? 1 : 0 };
    }
    for (const f of families) store.writeFile(`skills/final/household-${f}/SKILL.md`, formatSkill(skills[f]));
    emit({
      type: 'run:end',
      status: 'completed',
      metrics: { steps, test_success_without: skillFree(steps), test_success_with: withSkill() },
    });
    store.writeFile(
      'summary.json',
      `${JSON.stringify({ method: 'internalize', variant, metrics: { steps }, testOutcomes: outcomes }, null, 2)}\n`,
    );
  };
  emit({ type: 'run:start', method: `internalize:${variant}`, seed, config });
  validate(0);
  if (!keepOpen) {
    for (let t = 1; t <= steps; t++) step(t);
    if (complete) finish();
    store.close();
  }
  return { store, step, finish, close: () => store.close() };
}

/**
 * A Skill-R1-shaped run (`evolve`): per generation and task a generation event and the candidates' rollouts,
 * the carried skill written under skills/<g>/<task>/, candidates under candidates/, and (complete) the final
 * evaluation with its paired z = 0 rollouts and bank.jsonl. `markup` puts HTML into a skill's text.
 */
export function writeEvolveRun(dir, options = {}) {
  const {
    runId = 'evolve',
    seed = 3,
    tasks = 3,
    generations = 4,
    candidates = 2,
    episodes = 2,
    markup = false,
  } = options;
  const store = openRunStore(dir, { segmentOnClose: true, onWarning: () => {} });
  const rng = createRng(seed);
  const time = clock(Date.parse('2026-12-01T09:00:00Z'));
  const config = {
    method: 'evolve',
    seed,
    name: runId,
    adapter: 'household',
    tasks: { split: 'train', limit: tasks },
    agent: 'skill-reading',
    evolve: { mode: 'grpo', generations, candidates, episodes, generator: 'step-editor' },
  };
  store.writeFile(
    'run.json',
    `${JSON.stringify({ runId, method: 'evolve', configPath: `${dir}/config.yaml`, components: { adapter: 'registry:household' } }, null, 2)}\n`,
  );
  store.writeFile('config.json', `${JSON.stringify(config, null, 2)}\n`);
  const emit = (event) => store.append('events', { ...event, runId, time: time.now() });
  emit({ type: 'run:start', method: 'evolve:grpo', seed, config });
  const bank = [];
  const carried = new Map();
  const slug = (t) => `household-train-1-${t}`;
  for (let g = 0; g <= generations; g++) {
    for (let t = 0; t < tasks; t++) {
      const taskId = `household/train/1/${t}`;
      const family = FAMILIES[t % FAMILIES.length];
      const steps = [
        `Go to the ${family} place.`,
        'Take the object.',
        ...Array.from({ length: g }, (_, i) => `Check step ${i + 1} again.`),
      ];
      const body = `# ${family} procedure (generation ${g})\n\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n${markup && t === 0 ? '\n<script>window.__xss = 3</script> <b>not bold</b>\n' : ''}`;
      const skill = {
        name: `${family}-steps`,
        description: `An ordered procedure for ${family} tasks.`,
        body,
        families: [family],
      };
      const hash = `${t}${String(g).padStart(3, '0')}abcdef0123`.slice(0, 16);
      const file =
        g === 0
          ? `skills/0/${slug(t)}/${skill.name}/SKILL.md`
          : `candidates/${g}/${slug(t)}/0/${skill.name}/SKILL.md`;
      store.writeFile(file, formatSkill(skill));
      if (g > 0) store.writeFile(`skills/${g}/${slug(t)}/${skill.name}/SKILL.md`, formatSkill(skill));
      let sum = 0;
      let best = 0;
      for (let k = 0; k < (g === 0 ? 1 : candidates); k++) {
        let candidateSum = 0;
        for (let e = 0; e < episodes; e++) {
          const id = `g${g}/${taskId}:k${k}:c1:i${e}`;
          const passed = rng.float() < 0.2 + 0.15 * g;
          const tr = makeTrajectory(rng, {
            id,
            taskId,
            family,
            condition: 1,
            passed,
            skill: { name: skill.name, hash },
          });
          tr.generation = g;
          tr.candidate = k;
          store.append('rollouts', tr);
          emit({
            type: 'rollout',
            trajectoryId: id,
            taskId,
            family,
            condition: 1,
            reward: tr.reward,
            passed,
            generation: g,
            candidate: k,
          });
          candidateSum += tr.reward;
        }
        sum += candidateSum;
        best = Math.max(best, candidateSum / episodes);
      }
      const mean = sum / ((g === 0 ? 1 : candidates) * episodes);
      emit({
        type: 'generation',
        taskId,
        generation: g,
        meanReward: mean,
        bestReward: best,
        bestSkill: skill.name,
      });
      const parent = carried.get(t);
      bank.push({
        name: skill.name,
        hash,
        ...(parent ? { parent } : {}),
        run: runId,
        method: 'evolve',
        generation: g,
        task: slug(t),
        file,
        reward: { mean, lo: Math.max(0, mean - 0.3), hi: Math.min(1, mean + 0.3), episodes },
        carried: true,
        ...(g === generations ? { final: true } : {}),
      });
      carried.set(t, hash);
      time.tick(800);
    }
  }
  for (let t = 0; t < tasks; t++) {
    const taskId = `household/train/1/${t}`;
    const family = FAMILIES[t % FAMILIES.length];
    for (const z of [1, 0]) {
      const id = `final/${taskId}:c${z}:i0`;
      const passed = rng.float() < (z === 1 ? 0.7 : 0.3);
      const tr = makeTrajectory(rng, {
        id,
        taskId,
        family,
        condition: z,
        passed,
        markup: markup && t === 0 && z === 1,
        skill: { name: `${family}-steps`, hash: carried.get(t) },
      });
      store.append('rollouts', tr);
      emit({ type: 'rollout', trajectoryId: id, taskId, family, condition: z, reward: tr.reward, passed });
    }
  }
  emit({ type: 'run:end', status: 'completed', metrics: { generations } });
  store.writeFile('bank.jsonl', `${bank.map((r) => JSON.stringify(r)).join('\n')}\n`);
  store.close();
}

/** A run holding one trajectory of `steps` decisions (the virtual list's case), and a short one beside it. */
export function writeLongTrajectoryRun(dir, { steps = 2000, runId = 'long' } = {}) {
  const { store } = writeInternalizeRun(dir, {
    runId,
    steps: 1,
    validateEvery: 100,
    complete: false,
    keepOpen: true,
    families: ['pick'],
    validationTasks: 1,
  });
  const rng = createRng(9);
  const id = 's1/household/train/0/0:c1:i0';
  const t = makeTrajectory(rng, {
    id,
    taskId: 'household/train/0/0',
    family: 'pick',
    condition: 1,
    passed: true,
    steps,
    observationBytes: 60,
  });
  // Some steps much longer than others, so that rows differ in height as a real episode's do.
  for (const s of t.steps)
    if (s.index % 7 === 3)
      s.observation = `${s.observation}\n${'A long description of the room. '.repeat(12)}`;
  store.append('rollouts', t);
  store.append('events', {
    type: 'rollout',
    trajectoryId: id,
    taskId: t.taskId,
    family: 'pick',
    condition: 1,
    reward: 1,
    passed: true,
    runId,
    time: new Date().toISOString(),
  });
  store.append('events', {
    type: 'step',
    step: 1,
    metrics: { success: 1 },
    runId,
    time: new Date().toISOString(),
  });
  store.append('events', { type: 'run:end', status: 'completed', runId, time: new Date().toISOString() });
  store.close();
  return id;
}
