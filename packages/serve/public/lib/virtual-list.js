import {
  elementScroll,
  measureElement,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
} from '/vendor/virtual-core/index.js';
import { append, clear, el } from './dom.js';

/**
 * A scrolling list that keeps only the rows in view (and a few around them) in the page, whatever its length:
 * TanStack Virtual's core computes which rows those are and where they sit, measuring each row once drawn
 * (an observation can be one line or a screenful). `renderRow(index)` makes a row's element; it may return
 * a placeholder and be asked again after `refresh()`. `onRange(start, end)` says which rows are in view (a
 * paged list fetches them).
 */
export function virtualList({ scroller, count, estimateSize = () => 48, renderRow, overscan = 6, onRange }) {
  scroller.classList.add('virtual-scroller');
  const spacer = el('div', { class: 'virtual-spacer' });
  append(clear(scroller), spacer);
  const rows = new Map();
  let lastRange = '';

  const draw = (virtualizer) => {
    const items = virtualizer.getVirtualItems();
    spacer.style.height = `${virtualizer.getTotalSize()}px`;
    const wanted = new Set(items.map((i) => i.index));
    for (const [index, node] of rows) {
      if (!wanted.has(index)) {
        node.remove();
        rows.delete(index);
      }
    }
    for (const item of items) {
      let node = rows.get(item.index);
      if (!node) {
        node = el('div', { class: 'virtual-row', 'data-index': item.index }, renderRow(item.index));
        rows.set(item.index, node);
        spacer.append(node);
        virtualizer.measureElement(node);
      }
      node.style.transform = `translateY(${item.start}px)`;
    }
    if (items.length > 0 && onRange) {
      const range = `${items[0].index}:${items[items.length - 1].index}`;
      if (range !== lastRange) {
        lastRange = range;
        onRange(items[0].index, items[items.length - 1].index);
      }
    }
  };

  const virtualizer = new Virtualizer({
    count,
    getScrollElement: () => scroller,
    estimateSize,
    overscan,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    measureElement,
    onChange: (v) => draw(v),
  });
  const unmount = virtualizer._didMount();
  virtualizer._willUpdate();
  draw(virtualizer);

  return {
    virtualizer,
    /** Rows currently in the page (the test checks that a long list keeps few). */
    renderedCount: () => rows.size,
    setCount(next) {
      virtualizer.setOptions({ ...virtualizer.options, count: next });
      virtualizer._willUpdate();
      draw(virtualizer);
    },
    /** Draws every visible row again (their data arrived). */
    refresh() {
      for (const node of rows.values()) node.remove();
      rows.clear();
      lastRange = '';
      draw(virtualizer);
    },
    scrollToIndex(index) {
      virtualizer.scrollToIndex(index, { align: 'start' });
    },
    destroy() {
      unmount();
      clear(scroller);
    },
  };
}
