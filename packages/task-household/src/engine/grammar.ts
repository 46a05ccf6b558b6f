import { InvalidArgumentError } from '@skillrl/core';

/** One alternative of a grammar symbol: the first whose condition holds is used. */
export interface GrammarRule {
  /** Predicate names of the condition's conjunction (`openable & opened`), lower case; empty = always. */
  condition: readonly string[];
  rhs: string;
}

type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'ref'; symbol: string }
  | { kind: 'var'; name: string }
  | { kind: 'list'; withArticle: boolean };

interface CompiledRule {
  condition: readonly string[];
  segments: Segment[];
}

/** What a symbol is rendered against: entity names, the entities each list shows, and condition truth. */
export interface RenderContext {
  /** `r` → `cabinet 1`, `o` → `apple 2`, `lend` → `loc 3`, `a` → `alice`. */
  vars: Record<string, string>;
  /** Names listed by the `[{… | …}]` expression inside the named symbol. */
  list?(symbol: string): readonly string[];
  /** Symbols whose text the game fixes (ALFWorld writes each game's `task` into its grammar). */
  overrides?: Record<string, string>;
  /**
   * Truth of one condition predicate (`opened`, `ishot`, `holdsany`, `not_istoggled`...) inside `symbol`:
   * TextWorld binds a condition's free variables per symbol, so the same predicate can mean different things.
   */
  holds(predicate: string, symbol: string): boolean;
}

/** A command template, compiled: literal parts with `{o}` / `{r}` slots between them. */
export interface CommandTemplate {
  source: string;
  parts: readonly string[];
  slots: readonly string[];
}

/**
 * A TextWorld grammar (`*.twl2`) as ALFWorld ships it: symbol rules with conditions, and one command
 * template per action. Observations are rendered from these texts, never from strings of our own.
 */
export class Grammar {
  readonly templates: Readonly<Record<string, CommandTemplate>>;
  /** `{a.name}: ` when commands are addressed to one of several agents (multi-agent games). */
  readonly agentPrefixed: boolean;
  private readonly rules: Map<string, CompiledRule[]>;

  constructor(symbols: Record<string, GrammarRule[]>, templates: Record<string, string>) {
    this.rules = new Map();
    for (const [symbol, rules] of Object.entries(symbols)) {
      this.rules.set(
        symbol,
        rules.map((r) => ({ condition: r.condition, segments: compileRhs(r.rhs) })),
      );
    }
    let prefixed = false;
    const compiled: Record<string, CommandTemplate> = {};
    for (const [action, template] of Object.entries(templates)) {
      let source = template;
      if (source.startsWith('{a.name}: ')) {
        prefixed = true;
        source = source.slice('{a.name}: '.length);
      }
      // `go to [{r.name | receptacleatlocation(...)}]` names the receptacle the agent goes to.
      source = source.replace(/\[\{(\w+)\.name \|[^\]]*\]/g, '{$1}');
      compiled[action] = compileTemplate(source);
    }
    this.templates = compiled;
    this.agentPrefixed = prefixed;
  }

  has(symbol: string): boolean {
    return this.rules.has(symbol);
  }

  /** The raw right-hand side of a symbol's first rule (the `task` text, say). */
  rhs(symbol: string): string | undefined {
    const rule = this.rules.get(symbol)?.[0];
    if (!rule) return undefined;
    return rule.segments
      .map((s) => (s.kind === 'text' ? s.text : s.kind === 'ref' ? `#${s.symbol}#` : ''))
      .join('');
  }

  /** Renders `#symbol#` in a context. */
  render(symbol: string, ctx: RenderContext): string {
    const fixed = ctx.overrides?.[symbol];
    if (fixed !== undefined) return fixed;
    const rules = this.rules.get(symbol);
    if (!rules) {
      throw new InvalidArgumentError('grammar symbol', `"${symbol}" is not defined by this grammar`);
    }
    for (const rule of rules) {
      let ok = true;
      for (const p of rule.condition) {
        if (!ctx.holds(p, symbol)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      let out = '';
      for (const seg of rule.segments) {
        switch (seg.kind) {
          case 'text':
            out += seg.text;
            break;
          case 'ref':
            out += this.render(seg.symbol, ctx);
            break;
          case 'var':
            out += ctx.vars[seg.name] ?? '';
            break;
          case 'list':
            out += this.renderList(ctx.list?.(symbol) ?? [], seg.withArticle, ctx);
            break;
        }
      }
      return out;
    }
    return '';
  }

  /** A command's text from its action template (`take {o} from {r}`). */
  command(action: string, args: Record<string, string>): string {
    const t = this.templates[action];
    if (!t) throw new InvalidArgumentError('grammar action', `"${action}" has no template in this grammar`);
    let out = t.parts[0] ?? '';
    for (let i = 0; i < t.slots.length; i++)
      out += (args[t.slots[i] as string] ?? '') + (t.parts[i + 1] ?? '');
    return out;
  }

  private renderList(items: readonly string[], withArticle: boolean, ctx: RenderContext): string {
    if (items.length === 0) return this.has('list_empty') ? this.render('list_empty', ctx) : 'nothing';
    const sep = this.has('list_separator') ? this.render('list_separator', ctx) : ', ';
    const last = this.has('list_last_separator') ? this.render('list_last_separator', ctx) : ', and ';
    // ALFWorld's `indefinite` is always "a" ("a apple 1"): its objects are all numbered common nouns.
    const fmt = withArticle ? (s: string) => `a ${s}` : (s: string) => s;
    if (items.length === 1) return fmt(items[0] as string);
    let out = fmt(items[0] as string);
    for (let i = 1; i < items.length - 1; i++) out += sep + fmt(items[i] as string);
    return out + last + fmt(items[items.length - 1] as string);
  }
}

function compileTemplate(source: string): CommandTemplate {
  const parts: string[] = [];
  const slots: string[] = [];
  const re = /\{(\w+)\}/g;
  let last = 0;
  for (let m = re.exec(source); m !== null; m = re.exec(source)) {
    parts.push(source.slice(last, m.index));
    slots.push(m[1] as string);
    last = m.index + m[0].length;
  }
  parts.push(source.slice(last));
  return { source, parts, slots };
}

function compileRhs(rhs: string): Segment[] {
  const segments: Segment[] = [];
  let text = '';
  const flush = (): void => {
    if (text) segments.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < rhs.length) {
    const c = rhs[i];
    if (c === '#') {
      const end = rhs.indexOf('#', i + 1);
      if (end > i + 1) {
        flush();
        segments.push({ kind: 'ref', symbol: rhs.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (c === '[' && rhs[i + 1] === '{') {
      const end = rhs.indexOf('}]', i);
      if (end > 0) {
        flush();
        const expr = rhs.slice(i + 2, end).split('|')[0] ?? '';
        segments.push({
          kind: 'list',
          withArticle: expr.includes('indefinite') || expr.includes('#overview'),
        });
        i = end + 2;
        continue;
      }
    }
    if (c === '{') {
      const end = rhs.indexOf('}', i);
      const m = /^(\w+)\.(name|indefinite|id)/.exec(rhs.slice(i + 1, end));
      if (end > 0 && m) {
        flush();
        if (m[2] === 'indefinite') segments.push({ kind: 'text', text: 'a' });
        else segments.push({ kind: 'var', name: m[1] as string });
        i = end + 1;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return segments;
}

function parseCondition(condition: string | undefined): string[] {
  if (!condition) return [];
  return condition
    .split('&')
    .map((p) => p.trim().replace(/\(.*$/, '').toLowerCase())
    .filter(Boolean);
}

/**
 * Parses a `.twl2` grammar: every `grammar :: """{json}"""` block (the file's own and each action's), and
 * each action's `template`. Throws `InvalidArgumentError` naming the block that is not valid JSON.
 */
export function parseGrammar(source: string): Grammar {
  if (typeof source !== 'string' || !source.includes('grammar ::')) {
    throw new InvalidArgumentError(
      'grammar',
      'expected the text of a TextWorld .twl2 grammar (`grammar :: """…"""`)',
    );
  }
  const symbols: Record<string, GrammarRule[]> = {};
  const blockRe = /grammar :: """([\s\S]*?)"""/g;
  let n = 0;
  for (let m = blockRe.exec(source); m !== null; m = blockRe.exec(source)) {
    n++;
    let json: Record<string, Array<{ condition?: string; rhs: string }>>;
    try {
      json = JSON.parse(m[1] as string);
    } catch (cause) {
      throw new InvalidArgumentError('grammar', `block ${n} is not valid JSON: ${(cause as Error).message}`, {
        cause,
      });
    }
    for (const [symbol, rules] of Object.entries(json)) {
      symbols[symbol] = rules.map((r) => ({ condition: parseCondition(r.condition), rhs: r.rhs }));
    }
  }
  const templates: Record<string, string> = {};
  const actionRe = /action (\w+) \{[\s\S]*?template :: "((?:[^"\\]|\\.)*)";/g;
  for (let m = actionRe.exec(source); m !== null; m = actionRe.exec(source)) {
    templates[m[1] as string] = m[2] as string;
  }
  return new Grammar(symbols, templates);
}
