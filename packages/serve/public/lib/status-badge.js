import { el } from './dom.js';
import { progressText } from './format.js';

/** A run's state as a coloured badge; the full label (how it stopped) as its title and beside it. */
export function statusBadge(status) {
  return el(
    'span',
    { class: `badge state-${status.state}`, title: status.label, 'data-state': status.state },
    status.state,
  );
}

/** Progress as text and a bar (`data-done` carries the count, for the tests). */
export function progressCell(progress) {
  const bar = el('progress', {
    max: progress.total ?? Math.max(1, progress.done),
    value: progress.done,
  });
  return el(
    'span',
    { class: 'progress', 'data-done': progress.done },
    el('span', { class: 'progress-text' }, progressText(progress)),
    bar,
  );
}
