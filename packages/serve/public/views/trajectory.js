import { getJson } from '../lib/api.js';
import { clear, el, link, routeHref, textBlock } from '../lib/dom.js';
import { num } from '../lib/format.js';
import { virtualList } from '../lib/virtual-list.js';

function tokens(step) {
  const parts = [];
  if (step.inputTokens !== undefined) parts.push(`${step.inputTokens} in`);
  if (step.outputTokens !== undefined) parts.push(`${step.outputTokens} out`);
  if (step.actionTokens !== undefined && step.outputTokens === undefined)
    parts.push(`${step.actionTokens} action tokens`);
  return parts.length ? `tokens ${parts.join(' / ')}` : '';
}

/** One step of the timeline: what the agent saw, what it did (or called), its reply, and what it got. */
function stepCard(step) {
  const facts = [
    `reward ${num(step.reward)}`,
    tokens(step),
    step.latencyMs !== undefined ? `${step.latencyMs} ms` : '',
    step.logProb !== undefined ? `log p ${num(step.logProb, 3)}` : '',
    step.done ? 'done' : '',
    step.invalid ? 'invalid action' : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return el(
    'article',
    {
      class: `step${step.invalid ? ' invalid' : ''}${step.reward > 0 ? ' rewarded' : ''}`,
      'data-step': step.index,
    },
    el('header', {}, el('strong', {}, `step ${step.index}`), el('span', { class: 'muted' }, ` ${facts}`)),
    el('div', { class: 'label' }, 'observation'),
    textBlock(step.observation, 'text observation'),
    step.toolCall
      ? [
          el('div', { class: 'label' }, 'tool call'),
          textBlock(`${step.toolCall.name}(${step.toolCall.arguments})`, 'text action'),
        ]
      : [el('div', { class: 'label' }, 'action'), textBlock(step.action, 'text action')],
    step.reply !== undefined
      ? [el('div', { class: 'label' }, 'reply'), textBlock(step.reply, 'text reply')]
      : null,
    step.env ? el('div', { class: 'env small muted' }, `env ${step.env}`) : null,
  );
}

function header(runId, t) {
  const verdict = t.error ? `errored: ${t.error.code}` : t.verdict.passed ? 'passed' : 'failed';
  const usage = t.usage
    ? ` · tokens ${t.usage.inputTokens} in / ${t.usage.outputTokens} out${t.usage.requests !== undefined ? ` in ${t.usage.requests} calls` : ''}`
    : '';
  return el(
    'header',
    { class: 'trajectory-head' },
    el(
      'h2',
      {},
      el('span', { class: `badge z${t.condition}` }, `z = ${t.condition}`),
      ' ',
      el('span', { class: 'mono' }, t.id),
    ),
    el(
      'p',
      {},
      `task ${t.taskId} · ${t.family} · reward ${num(t.reward)} · ${verdict} · ${t.steps.length} steps${t.durationMs !== undefined ? ` · ${t.durationMs} ms` : ''}${usage}`,
    ),
    t.skill
      ? el(
          'p',
          {},
          'skill ',
          link('skills', { run: runId }, t.skill.name),
          t.skill.hash ? el('span', { class: 'muted' }, ` ${t.skill.hash}`) : null,
        )
      : el('p', { class: 'muted' }, 'no skill in the prompt'),
    t.verdict.reason ? el('p', { class: 'muted' }, `verdict: ${t.verdict.reason}`) : null,
    t.error ? textBlock(t.error.message, 'text error') : null,
    t.answer !== undefined ? [el('div', { class: 'label' }, 'answer'), textBlock(t.answer, 'text')] : null,
  );
}

/** A trajectory's steps as a virtual list: a 2 000-step episode keeps a screenful of steps in the page. */
function timeline(column, runId, t) {
  const scroller = el('div', { class: 'timeline', 'data-trajectory': t.id });
  column.append(header(runId, t), scroller);
  return virtualList({
    scroller,
    count: t.steps.length,
    estimateSize: () => 160,
    renderRow: (i) => stepCard(t.steps[i]),
  });
}

/** A rollout as a timeline, and — where the run has one — the same task's rollout under the other condition beside it. */
export function trajectoryView(main, params) {
  const runId = params.get('run') ?? '';
  const id = params.get('id') ?? '';
  const pairId = params.get('pair');
  const lists = [];
  const nav = el(
    'nav',
    { class: 'subnav' },
    link('run', { run: runId }, runId),
    link('rollouts', { run: runId }, 'all trajectories'),
  );
  const columns = el('div', { class: 'pair', id: 'pair' });
  const pairPick = el('div', { class: 'pair-pick' });
  main.append(nav, pairPick, columns);
  void (async () => {
    let first;
    try {
      first = await getJson('/api/trajectory', { run: runId, id });
    } catch (error) {
      main.append(el('p', { class: 'error' }, error.message));
      return;
    }
    const partnerId = pairId ?? first.partners[0]?.id;
    let second;
    if (partnerId) {
      try {
        second = await getJson('/api/trajectory', { run: runId, id: partnerId });
      } catch {
        second = undefined;
      }
    }
    if (first.partners.length > 0) {
      const pick = el('select', { 'aria-label': 'paired rollout' });
      for (const p of first.partners)
        pick.append(el('option', { value: p.id }, `${p.id} (z = ${p.condition}, reward ${num(p.reward)})`));
      pick.value = partnerId ?? '';
      pick.addEventListener('change', () => {
        location.hash = routeHref('trajectory', { run: runId, id, pair: pick.value });
      });
      pairPick.append(
        el('label', {}, `Paired with the same task under z = ${1 - first.trajectory.condition}: `, pick),
      );
    } else {
      pairPick.append(
        el('p', { class: 'muted' }, 'No rollout of this task under the other condition in this unit.'),
      );
    }
    // z = 1 on the left, z = 0 on the right, whichever was opened.
    const shown = [first.trajectory, second?.trajectory]
      .filter(Boolean)
      .sort((a, b) => b.condition - a.condition);
    for (const t of shown) {
      const column = el('section', { class: 'column', 'data-z': t.condition });
      columns.append(column);
      lists.push(timeline(column, runId, t));
    }
    columns.classList.toggle('two', shown.length === 2);
    main.dataset.loaded = 'true';
  })();
  return {
    dispose() {
      for (const l of lists) l.destroy();
      clear(columns);
    },
  };
}
