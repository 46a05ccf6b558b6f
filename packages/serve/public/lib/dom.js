// Every piece of run content reaches the page through this module as text: elements are made with
// createElement and filled with text nodes, never from HTML strings. (The page's CSP also enforces Trusted
// Types with no policy, so an HTML sink would throw rather than parse.)

/**
 * An element with attributes and children. Children are nodes or strings (made text nodes); `null`,
 * `undefined` and `false` are skipped. Attributes: `class`, `href`, `title`, `data-*`, … set with
 * setAttribute; `on` maps event names to listeners.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'on') {
      for (const [event, listener] of Object.entries(value)) node.addEventListener(event, listener);
    } else if (name === 'style') {
      throw new Error('el(): set styles through CSS classes or node.style, never a style attribute');
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(node, ...children);
  return node;
}

export function append(node, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** A block of run text (an observation, a SKILL.md), kept as it is: whitespace and all, as text. */
export function textBlock(text, className = 'text') {
  const pre = document.createElement('pre');
  pre.className = className;
  pre.textContent = text;
  return pre;
}

/** A link to a view of this page (`#/run?run=…`). */
export function link(route, params, ...children) {
  return el('a', { href: routeHref(route, params) }, ...children);
}

export function routeHref(route, params = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) query.append(k, String(x));
    else if (v !== undefined && v !== null && v !== '') query.set(k, String(v));
  }
  const q = query.toString();
  return `#/${route}${q ? `?${q}` : ''}`;
}
