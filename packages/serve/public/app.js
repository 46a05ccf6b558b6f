import { connectLive } from './lib/api.js';
import { clear, el } from './lib/dom.js';
import { compareView } from './views/compare.js';
import { rolloutsView } from './views/rollouts.js';
import { runView } from './views/run.js';
import { runsView } from './views/runs.js';
import { skillsView } from './views/skills.js';
import { trajectoryView } from './views/trajectory.js';

// One page, views by the address's hash (`#/run?run=…`): the server sends the same page for every view, and
// a view reads its data from the JSON API.
const ROUTES = {
  '': runsView,
  run: runView,
  compare: compareView,
  skills: skillsView,
  rollouts: rolloutsView,
  trajectory: trajectoryView,
};

const main = document.getElementById('view');
let current;

function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const at = hash.indexOf('?');
  const name = at === -1 ? hash : hash.slice(0, at);
  const params = new URLSearchParams(at === -1 ? '' : hash.slice(at + 1));
  current?.dispose?.();
  clear(main);
  document.body.dataset.view = name || 'runs';
  const view = ROUTES[name];
  if (view) {
    current = view(main, params);
  } else {
    current = undefined;
    main.append(el('p', { class: 'error' }, `No view "${name}".`));
  }
}

const liveBadge = document.getElementById('live');
connectLive({
  status: (text) => {
    liveBadge.textContent = text;
    liveBadge.dataset.state = text === 'live' ? 'live' : 'down';
  },
  runs: (ids) => current?.onRuns?.(ids),
  run: (summary) => current?.onRun?.(summary),
});
window.addEventListener('hashchange', route);
route();
