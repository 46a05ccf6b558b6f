import { getJson } from '../lib/api.js';
import { append, clear, el, link, routeHref } from '../lib/dom.js';
import { num } from '../lib/format.js';
import { refresher } from '../lib/refresher.js';
import { virtualList } from '../lib/virtual-list.js';

const PAGE = 200;
const FILTERS = ['family', 'z', 'unit', 'outcome', 'task', 'minReward', 'maxReward'];

function select(name, label, options, value) {
  const s = el('select', { name, 'aria-label': label }, el('option', { value: '' }, `any ${label}`));
  for (const [v, text] of options) s.append(el('option', { value: v }, text));
  s.value = value ?? '';
  return s;
}

function outcomeOf(row) {
  if (row.error !== undefined)
    return el('span', { class: 'badge state-failed', title: row.error }, 'errored');
  return row.passed
    ? el('span', { class: 'badge state-completed' }, 'passed')
    : el('span', { class: 'badge state-stopped' }, 'failed');
}

/**
 * Every rollout of a run, filterable by family, condition z, unit, task, reward and outcome. The list is
 * virtual (only the rows in view are in the page) and paged from the server as it scrolls: a run of 100k
 * rollouts lists as fast as one of ten.
 */
export function rolloutsView(main, params) {
  const runId = params.get('run') ?? '';
  const current = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? '']));
  const count = el('p', { class: 'muted', id: 'rollout-count' });
  const form = el('form', { class: 'filters', id: 'rollout-filters' });
  const scroller = el('div', { class: 'rollout-list', id: 'rollout-list' });
  main.append(
    el('h1', {}, 'Trajectories of ', link('run', { run: runId }, runId)),
    form,
    count,
    el(
      'div',
      { class: 'rollout-head' },
      ...['rollout', 'unit', 'task', 'family', 'z', 'reward', 'outcome'].map((h) => el('span', {}, h)),
    ),
    scroller,
  );

  const pages = new Map();
  let matched = 0;
  let list;
  const apply = () => {
    const next = {};
    for (const f of FILTERS) {
      const v = form.elements[f]?.value ?? '';
      if (v !== '') next[f] = v;
    }
    location.hash = routeHref('rollouts', { run: runId, ...next });
  };
  form.addEventListener('change', apply);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply();
  });

  const query = (offset) => ({ run: runId, ...current, offset, limit: PAGE });
  const fetchPage = async (page) => {
    if (pages.has(page)) return;
    pages.set(page, null);
    const data = await getJson('/api/rollouts', query(page * PAGE));
    pages.set(page, data.rows);
    list?.refresh();
  };
  const rowAt = (index) => {
    const page = pages.get(Math.floor(index / PAGE));
    return page ? page[index % PAGE] : undefined;
  };
  const renderRow = (index) => {
    const row = rowAt(index);
    if (!row) return el('div', { class: 'rollout-row muted' }, '…');
    return el(
      'a',
      {
        class: 'rollout-row',
        href: routeHref('trajectory', { run: runId, id: row.id }),
        'data-rollout': row.id,
        'data-z': row.condition,
      },
      el('span', { class: 'mono' }, row.id),
      el('span', {}, row.unit),
      el('span', { class: 'small' }, row.taskId),
      el('span', { class: 'small' }, row.family),
      el('span', {}, `z=${row.condition}`),
      el('span', { class: 'num' }, num(row.reward)),
      el('span', {}, outcomeOf(row)),
    );
  };

  let facetsDrawn = false;
  const load = refresher(async () => {
    const first = await getJson('/api/rollouts', query(0));
    if (!facetsDrawn) {
      facetsDrawn = true;
      append(
        clear(form),
        select(
          'family',
          'family',
          first.families.map((f) => [f, f]),
          current.family,
        ),
        select(
          'z',
          'condition',
          [
            ['1', 'z = 1 (with skill)'],
            ['0', 'z = 0 (without)'],
          ],
          current.z,
        ),
        select(
          'unit',
          'unit',
          first.units.map((u) => [u, u]),
          current.unit,
        ),
        select(
          'outcome',
          'outcome',
          [
            ['passed', 'passed'],
            ['failed', 'failed'],
            ['errored', 'errored'],
            ['scored', 'not errored'],
          ],
          current.outcome,
        ),
        el('input', {
          name: 'task',
          placeholder: 'task contains…',
          value: current.task,
          'aria-label': 'task',
        }),
        el('input', {
          name: 'minReward',
          type: 'number',
          step: 'any',
          placeholder: 'reward ≥',
          value: current.minReward,
          'aria-label': 'minimum reward',
        }),
        el('input', {
          name: 'maxReward',
          type: 'number',
          step: 'any',
          placeholder: 'reward ≤',
          value: current.maxReward,
          'aria-label': 'maximum reward',
        }),
      );
    }
    pages.clear();
    pages.set(0, first.rows);
    matched = first.matched;
    count.textContent = `${first.matched} of ${first.total} rollouts`;
    count.dataset.matched = String(first.matched);
    if (!list) {
      list = virtualList({
        scroller,
        count: matched,
        estimateSize: () => 34,
        renderRow,
        overscan: 10,
        onRange: (start, end) => {
          for (let p = Math.floor(start / PAGE); p <= Math.floor(end / PAGE); p++) void fetchPage(p);
        },
      });
    } else {
      list.setCount(matched);
      list.refresh();
    }
    main.dataset.loaded = 'true';
  });
  void load.run();
  return {
    onRun(summary) {
      if (summary.id === runId) void load.run();
    },
    dispose() {
      load.dispose();
      list?.destroy();
    },
  };
}
