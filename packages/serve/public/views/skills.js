import { getJson } from '../lib/api.js';
import { append, clear, el, link, routeHref, textBlock } from '../lib/dom.js';
import { num, withInterval } from '../lib/format.js';
import { refresher } from '../lib/refresher.js';

function diffBlock(diff) {
  if (!diff) return null;
  if (diff.lines.length === 0) return el('p', { class: 'muted' }, 'Same text as its parent.');
  const pre = el('pre', { class: 'diff', id: 'skill-diff' });
  for (const line of diff.lines) {
    const mark = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : line.kind === 'hunk' ? '' : ' ';
    pre.append(el('span', { class: `diff-${line.kind}` }, `${mark}${line.text}\n`));
  }
  return el('div', {}, el('h3', {}, `Diff from its parent (+${diff.added} −${diff.removed})`), pre);
}

/** The run's skill bank: versions with parent links, reward and utility with intervals; text and diff. */
export function skillsView(main, params) {
  const runId = params.get('run') ?? '';
  const chosen = params.get('v');
  const info = el('p', { class: 'muted' });
  const body = el('tbody');
  const detail = el('section', { id: 'skill-detail' });
  main.append(
    el('h1', {}, 'Skills of ', link('run', { run: runId }, runId)),
    info,
    el(
      'div',
      { class: 'split' },
      el(
        'table',
        { class: 'skills', id: 'skills-table' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...[
              '#',
              'skill',
              'generation',
              'for',
              'parent',
              'kept',
              'reward [95 %]',
              'utility: with − without [95 %]',
              'retired',
            ].map((h) => el('th', {}, h)),
          ),
        ),
        body,
      ),
      detail,
    ),
  );
  const show = async (index) => {
    append(clear(detail), el('p', { class: 'muted' }, 'loading…'));
    const d = await getJson('/api/skill', { run: runId, index });
    const v = d.version;
    append(
      clear(detail),
      el('h2', {}, `#${v.index} ${v.name}`),
      el('p', { class: 'muted' }, `hash ${v.hash}${v.parent ? ` · parent ${v.parent}` : ''} · ${v.file}`),
      d.problem ? el('p', { class: 'error' }, d.problem) : textBlock(d.text, 'text skill-text'),
      diffBlock(d.diff),
    );
    detail.dataset.index = String(index);
  };
  const load = refresher(async () => {
    const data = await getJson('/api/skills', { run: runId });
    info.textContent = data.problem ?? `${data.versions.length} version(s), read from ${data.source}.`;
    clear(body);
    for (const v of data.versions) {
      const row = el(
        'tr',
        { 'data-index': v.index, class: String(v.index) === chosen ? 'selected' : '' },
        el(
          'td',
          { class: 'num' },
          el('a', { href: routeHref('skills', { run: runId, v: v.index }) }, `#${v.index}`),
        ),
        el('td', {}, v.name),
        el('td', {}, v.generation === undefined ? '' : String(v.generation)),
        el('td', { class: 'small' }, v.task ?? (v.families ?? []).join(', ')),
        el(
          'td',
          {},
          v.parentIndex !== undefined
            ? el('a', { href: routeHref('skills', { run: runId, v: v.parentIndex }) }, `#${v.parentIndex}`)
            : v.parent
              ? v.parent
              : '',
        ),
        el(
          'td',
          {},
          v.final ? 'final' : v.carried === true ? 'carried' : v.carried === false ? 'not carried' : '',
        ),
        el(
          'td',
          { class: 'num' },
          v.reward ? `${withInterval(v.reward.mean, v.reward.lo, v.reward.hi)} (${v.reward.episodes})` : '',
        ),
        el(
          'td',
          { class: 'num' },
          v.utility
            ? `${withInterval(v.utility.gap, v.utility.lo, v.utility.hi)} — ${num(v.utility.withSkill)} vs ${num(v.utility.withoutSkill)}, ${v.utility.pairs} ${v.utility.pairedBy === 'episode' ? 'episode pairs' : 'tasks'} (${v.utility.split})`
            : '',
        ),
        el(
          'td',
          { class: 'small' },
          v.retiredAt
            ? Object.entries(v.retiredAt)
                .map(([f, s]) => `${f} at ${s}`)
                .join(', ')
            : '',
        ),
      );
      body.append(row);
    }
    main.dataset.loaded = 'true';
  });
  void load
    .run()
    .then(() => (chosen !== null ? show(Number(chosen)) : undefined))
    .catch((error) => append(clear(detail), el('p', { class: 'error' }, error.message)));
  return {
    onRun(summary) {
      if (summary.id === runId) void load.run();
    },
    dispose: () => load.dispose(),
  };
}
