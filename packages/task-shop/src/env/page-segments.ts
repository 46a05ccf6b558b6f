/** One piece of visible page text, tagged with what WebShop's HTML made it (for the rich observation). */
export interface PageSegment {
  text: string;
  role: 'text' | 'button' | 'option' | 'product-link';
  /** Options: chosen on this item page. Product links: opened earlier in this session. */
  clicked?: boolean;
}

export type ObservationMode = 'text' | 'text_rich';

/**
 * WebShop's `convert_html_to_text`. `text` (its "simple" mode) joins the visible strings with ` [SEP] `;
 * `text_rich` puts each on its own line and marks buttons, options and product links, and starts with
 * `You have clicked …` lines for the chosen options.
 */
export function renderSegments(segments: readonly PageSegment[], mode: ObservationMode): string {
  const visible = segments.filter((segment) => segment.text.trim() !== '');
  if (mode === 'text') return visible.map((segment) => segment.text.trim()).join(' [SEP] ');
  let observation = '';
  for (const { text, role, clicked } of visible) {
    let line: string;
    if (role === 'button') line = `[button] ${text} [button_]`;
    else if (role === 'option') {
      if (clicked) {
        line = `  [clicked button] ${text} [clicked button_]`;
        observation = `You have clicked ${text}.\n${observation}`;
      } else line = `  [button] ${text} [button_]`;
    } else if (role === 'product-link') {
      line = clicked ? `\n[clicked button] ${text} [clicked button_]` : `\n[button] ${text} [button_]`;
    } else line = text;
    observation += `${line}\n`;
  }
  return observation;
}
