import { getJson } from '../lib/api.js';
import { chartGrid } from '../lib/charts.js';
import { append, clear, el, link } from '../lib/dom.js';
import { ago, num } from '../lib/format.js';
import { refresher } from '../lib/refresher.js';
import { progressCell, statusBadge } from '../lib/status-badge.js';

function healthSection(runId, health) {
  const counts = el(
    'dl',
    { class: 'counts' },
    el('dt', {}, 'rollouts'),
    el('dd', { 'data-count': 'rollouts' }, String(health.rollouts)),
    el('dt', {}, 'errored'),
    el('dd', { 'data-count': 'errored', class: health.errored > 0 ? 'bad' : '' }, String(health.errored)),
    el('dt', {}, 're-run'),
    el('dd', { 'data-count': 'rerun' }, String(health.rerun)),
    el('dt', {}, 'units without signal'),
    el('dd', { 'data-count': 'void' }, String(health.voidUnits.length)),
  );
  const errors =
    health.errors.length === 0
      ? el('p', { class: 'muted' }, 'No errors recorded.')
      : el(
          'table',
          { class: 'errors' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', {}, 'count'),
              el('th', {}, 'code'),
              el('th', {}, 'message'),
              el('th', {}, 'last'),
              el('th', {}, ''),
            ),
          ),
          el(
            'tbody',
            {},
            health.errors.map((e) =>
              el(
                'tr',
                {},
                el('td', { class: 'num' }, String(e.count)),
                el('td', {}, e.code ?? ''),
                el('td', {}, el('pre', { class: 'text inline' }, e.message)),
                el('td', { class: 'muted' }, ago(e.lastTime)),
                el(
                  'td',
                  {},
                  e.example ? link('trajectory', { run: runId, id: e.example }, 'open a rollout') : '',
                ),
              ),
            ),
          ),
        );
  const voids =
    health.voidUnits.length === 0
      ? null
      : el(
          'details',
          {},
          el('summary', {}, `${health.voidUnits.length} unit(s) without a learning signal`),
          el(
            'ul',
            {},
            health.voidUnits.slice(-50).map((v) => el('li', {}, `${v.unit}: ${v.reason}`)),
          ),
        );
  const workers =
    health.workers.length === 0
      ? null
      : el(
          'ul',
          { class: 'workers' },
          health.workers.slice(-20).map((w) => el('li', {}, `${ago(w.time)} — ${w.status}: ${w.message}`)),
        );
  const skipped =
    health.skippedLines > 0
      ? el('p', { class: 'bad' }, `${health.skippedLines} event line(s) could not be read.`)
      : null;
  return [counts, errors, voids, workers, skipped];
}

function retirementTable(retirements) {
  if (retirements.length === 0) return el('p', { class: 'muted' }, 'No skill type retired yet.');
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, 'step'),
        el('th', {}, 'type'),
        el('th', {}, 'change'),
        el('th', {}, 'gap then'),
      ),
    ),
    el(
      'tbody',
      {},
      retirements.map((r) =>
        el(
          'tr',
          {},
          el('td', { class: 'num' }, String(r.step)),
          el('td', {}, r.family),
          el('td', {}, r.kind),
          el('td', { class: 'num' }, num(r.gap)),
        ),
      ),
    ),
  );
}

/** One run: its state, health and charts, redrawn in place as the run writes (no reload). */
export function runView(main, params) {
  const runId = params.get('run') ?? '';
  const header = el('div', { class: 'run-header' });
  const health = el('section', { class: 'health', id: 'health' });
  const chartsBox = el('section', { class: 'charts', id: 'charts' });
  const retirements = el('section', { id: 'retirements' });
  const metrics = el('section', { id: 'metrics' });
  main.append(
    header,
    el('h2', {}, 'Health'),
    health,
    el('h2', {}, 'Charts'),
    chartsBox,
    el('h2', { class: 'internalize-only' }, 'Retirements'),
    retirements,
    metrics,
  );
  const grid = chartGrid(chartsBox);

  const load = refresher(async () => {
    let detail;
    try {
      detail = await getJson('/api/run', { run: runId });
    } catch (error) {
      append(clear(header), el('p', { class: 'error' }, error.message));
      return;
    }
    const s = detail.summary;
    append(
      clear(header),
      el('h1', {}, s.id, ' ', statusBadge(s.status)),
      s.status.state !== 'running' && s.status.state !== 'completed'
        ? el('p', { class: 'muted' }, s.status.label)
        : null,
      s.status.error ? el('pre', { class: 'text error' }, s.status.error) : null,
      el(
        'p',
        {},
        `${s.method}${s.variant ? ` (${s.variant})` : ''} · `,
        progressCell(s.progress),
        ` · ${s.rollouts} rollouts · updated ${ago(s.updatedAt)}`,
      ),
      el('p', { class: 'muted' }, s.config.map(([k, v]) => `${k} ${v}`).join(' · ')),
      el(
        'nav',
        { class: 'subnav' },
        link('rollouts', { run: s.id }, 'Trajectories'),
        link('skills', { run: s.id }, 'Skills'),
        link('compare', { run: s.id }, 'Compare with…'),
        el(
          'a',
          {
            href: `/api/file?run=${encodeURIComponent(s.id)}&path=config.json`,
            target: '_blank',
            rel: 'noopener',
          },
          'config.json',
        ),
      ),
    );
    append(clear(health), ...healthSection(s.id, detail.health).filter(Boolean));
    grid.update(detail.charts);
    document.body.dataset.method = s.method;
    append(clear(retirements), s.method === 'internalize' ? retirementTable(detail.retirements) : '');
    clear(metrics);
    if (detail.metrics && Object.keys(detail.metrics).length > 0) {
      metrics.append(
        el('h2', {}, 'Final figures'),
        el(
          'details',
          {},
          el('summary', {}, `${Object.keys(detail.metrics).length} metrics`),
          el(
            'table',
            { class: 'metrics' },
            el(
              'tbody',
              {},
              Object.entries(detail.metrics).map(([k, v]) =>
                el('tr', {}, el('td', {}, k), el('td', { class: 'num' }, num(v, 4))),
              ),
            ),
          ),
        ),
      );
    }
    main.dataset.version = String(s.version);
    main.dataset.loaded = 'true';
  });
  void load.run();

  return {
    onRun(summary) {
      if (summary.id === runId) void load.run();
    },
    dispose() {
      load.dispose();
      grid.destroy();
    },
  };
}
