import { createRng, type Environment, type Rng, type Seed, type StepResult } from '@skillrl/core';
import type { ShopCatalogue } from '../catalogue/shop-catalogue.js';
import type { ShopGoal, ShopProduct } from '../product/shop-product.js';
import { getRewardWithInfo, type RewardInfo } from '../reward/get-reward.js';
import { type ObservationMode, type PageSegment, renderSegments } from './page-segments.js';
import { parseAction } from './parse-action.js';

/** WebShop's engine constants. */
export const SEARCH_RETURN_N = 50;
export const PRODUCT_WINDOW = 10;
export const DEFAULT_MAX_STEPS = 15;

const BUY_NOW = 'buy now';
const BACK_TO_SEARCH = 'back to search';
const NEXT_PAGE = 'next >';
const PREV_PAGE = '< prev';
const SUB_PAGES = ['description', 'features', 'reviews', 'attributes'] as const;
type SubPage = (typeof SUB_PAGES)[number];

export interface ShopEnvironmentOptions {
  catalogue: ShopCatalogue;
  goal: ShopGoal;
  /** Default 15, the cap the papers use. */
  maxSteps?: number;
  /** Default `text` (WebShop's simple mode, ` [SEP] `-joined). */
  observationMode?: ObservationMode;
  /** Show the `Attributes` button on item pages (WebShop's `show_attrs`). Default false. */
  showAttrs?: boolean;
  /** Seeds the `<r>` random-results search. Default 0. */
  seed?: Seed;
}

/** What was bought, for the verifier: enough to recompute the reward from the goal. */
export interface ShopPurchase {
  asin: string;
  options: Record<string, string>;
  price: number;
}

type Page = 'search' | 'results' | 'item' | 'sub' | 'done';

interface Clickable {
  kind: 'button' | 'product' | 'option';
  /** For options: the option name the radio button belongs to. */
  optionName?: string;
}

/**
 * A WebShop session in text: `search[keywords]` and `click[value]`, results 10 a page from the top 50 BM25
 * hits, item pages with options, description/features/reviews sub-pages, and `click[buy now]` ending the
 * episode with `get_reward`. An action WebShop would ignore (unknown, or a click on nothing clickable)
 * leaves the page as it is with reward 0, as in WebShop.
 */
export class ShopEnvironment implements Environment {
  readonly maxSteps: number;
  readonly goal: ShopGoal;
  private readonly catalogue: ShopCatalogue;
  private readonly mode: ObservationMode;
  private readonly showAttrs: boolean;
  private readonly seed: Seed;
  private rng: Rng;

  private page: Page = 'search';
  private keywords: string[] = [];
  private resultAsins: string[] = [];
  private pageNumber = 1;
  private asin: string | null = null;
  private visited = new Set<string>();
  private options: Record<string, string> = {};
  private subPage: SubPage = 'description';
  private reward = 0;
  private clickables = new Map<string, Clickable>();
  private observation = '';
  private purchase: ShopPurchase | null = null;
  private rewardInfo: RewardInfo | null = null;

  constructor(options: ShopEnvironmentOptions) {
    this.catalogue = options.catalogue;
    this.goal = options.goal;
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.mode = options.observationMode ?? 'text';
    this.showAttrs = options.showAttrs ?? false;
    this.seed = options.seed ?? 0;
    this.rng = createRng(this.seed).fork('random-search');
  }

  reset(): string {
    this.rng = createRng(this.seed).fork('random-search');
    this.purchase = null;
    this.rewardInfo = null;
    this.reward = 0;
    this.toSearchPage();
    return this.observation;
  }

  /** The text the agent sees now. */
  currentObservation(): string {
    return this.observation;
  }

  /** `click[value]` for every clickable on the page, and `search[<keywords>]` where there is a search bar. */
  admissibleActions(): string[] {
    const actions = this.page === 'search' ? ['search[<keywords>]'] : [];
    for (const name of this.clickables.keys()) if (name !== 'search') actions.push(`click[${name}]`);
    return actions;
  }

  /** The clickable values on the page, lower-cased as WebShop keys them. */
  clickableNames(): string[] {
    return [...this.clickables.keys()].filter((name) => name !== 'search');
  }

  get hasSearchBar(): boolean {
    return this.page === 'search';
  }

  lastPurchase(): ShopPurchase | null {
    return this.purchase;
  }

  step(action: string): StepResult {
    if (this.page === 'done') {
      return { observation: this.observation, reward: 0, done: true, info: { valid: false } };
    }
    const { name, arg: rawArg } = parseAction(action.trim());
    const arg = rawArg === null ? null : rawArg.toLowerCase();
    let valid = true;
    if (name === 'search' && arg !== null && arg !== '') {
      this.runSearch(arg.split(' '), 1);
    } else if (name === 'click' && arg !== null && arg !== 'search' && this.clickables.has(arg)) {
      this.click(arg);
    } else {
      valid = false;
    }
    const done = this.isDone();
    const info: Record<string, unknown> = { valid, page: this.page };
    if (done && this.purchase) {
      info.purchase = this.purchase;
      info.rewardInfo = this.rewardInfo;
    }
    return { observation: this.observation, reward: done ? this.reward : 0, done, info };
  }

  private isDone(): boolean {
    return this.page === 'done';
  }

  /** The branches of WebShop's `SimServer.receive` for a click, in its order. */
  private click(name: string): void {
    const clickable = this.clickables.get(name);
    if (name === BUY_NOW) this.buy();
    else if (name === BACK_TO_SEARCH) this.toSearchPage();
    else if (name === NEXT_PAGE && this.page === 'results')
      this.runSearch(this.keywords, this.pageNumber + 1);
    else if (name === PREV_PAGE && this.page === 'results')
      this.runSearch(this.keywords, this.pageNumber - 1);
    else if (name === PREV_PAGE && this.page === 'sub') this.showItem();
    else if (name === PREV_PAGE && this.page === 'item') this.runSearch(this.keywords, this.pageNumber);
    else if ((SUB_PAGES as readonly string[]).includes(name)) {
      this.subPage = name as SubPage;
      this.showSubPage();
    } else {
      if (clickable?.kind === 'product') {
        this.asin = name.toUpperCase();
        this.visited.add(this.asin);
      } else if (clickable?.kind === 'option' && clickable.optionName !== undefined) {
        this.options[clickable.optionName] = name;
      }
      this.showItem();
    }
  }

  private instructionSegments(): PageSegment[] {
    return [
      { text: 'Instruction:', role: 'text' },
      { text: this.goal.instruction_text, role: 'text' },
    ];
  }

  private show(segments: PageSegment[], clickables: Map<string, Clickable>): void {
    this.clickables = clickables;
    this.observation = renderSegments(segments, this.mode);
  }

  private toSearchPage(): void {
    this.page = 'search';
    this.keywords = [];
    this.resultAsins = [];
    this.pageNumber = 1;
    this.asin = null;
    this.visited = new Set();
    this.options = {};
    this.show(
      [{ text: 'WebShop', role: 'text' }, ...this.instructionSegments(), { text: 'Search', role: 'button' }],
      new Map([['search', { kind: 'button' }]]),
    );
  }

  /** `get_top_n_product_from_keywords`, including WebShop's `<r>`, `<a>`, `<c>` and `<q>` forms. */
  private topProducts(keywords: string[]): string[] {
    const { catalogue } = this;
    const [head] = keywords;
    const rest = keywords.slice(1).join(' ').trim();
    if (head === '<r>') {
      return this.rng
        .shuffle(catalogue.products)
        .slice(0, SEARCH_RETURN_N)
        .map((p) => p.asin);
    }
    if (head === '<a>') {
      const asins = catalogue.attributeToAsins.get(rest) ?? new Set();
      return catalogue.products.filter((p) => asins.has(p.asin)).map((p) => p.asin);
    }
    if (head === '<c>') {
      const category = (keywords[1] ?? '').trim();
      return catalogue.products.filter((p) => p.category === category).map((p) => p.asin);
    }
    if (head === '<q>') return catalogue.products.filter((p) => p.query === rest).map((p) => p.asin);
    return catalogue.index.search(keywords.join(' '), SEARCH_RETURN_N).map((hit) => hit.id);
  }

  private runSearch(keywords: string[], pageNumber: number): void {
    this.page = 'results';
    this.keywords = keywords;
    this.pageNumber = pageNumber;
    this.asin = null;
    this.options = {};
    this.resultAsins = this.topProducts(keywords);
    const total = this.resultAsins.length;
    const start = (pageNumber - 1) * PRODUCT_WINDOW;
    const shown = this.resultAsins.slice(Math.max(0, start), Math.max(0, pageNumber * PRODUCT_WINDOW));
    const segments: PageSegment[] = [
      ...this.instructionSegments(),
      { text: 'Back to Search', role: 'button' },
      { text: `Page ${pageNumber} (Total results: ${total})`, role: 'text' },
    ];
    const clickables = new Map<string, Clickable>([[BACK_TO_SEARCH, { kind: 'button' }]]);
    if (pageNumber > 1) {
      segments.push({ text: '< Prev', role: 'button' });
      clickables.set(PREV_PAGE, { kind: 'button' });
    }
    if (pageNumber * PRODUCT_WINDOW < total) {
      segments.push({ text: 'Next >', role: 'button' });
      clickables.set(NEXT_PAGE, { kind: 'button' });
    }
    for (const asin of shown) {
      const product = this.catalogue.byAsin.get(asin);
      if (!product) continue;
      segments.push(
        { text: product.asin, role: 'product-link', clicked: this.visited.has(product.asin) },
        { text: product.Title, role: 'text' },
        { text: product.Price, role: 'text' },
      );
      clickables.set(product.asin.toLowerCase(), { kind: 'product' });
    }
    this.show(segments, clickables);
  }

  private product(): ShopProduct {
    const product = this.asin === null ? undefined : this.catalogue.byAsin.get(this.asin);
    if (!product) throw new Error(`ShopEnvironment: no product ${this.asin} in the catalogue`);
    return product;
  }

  private showItem(): void {
    this.page = 'item';
    const product = this.product();
    const segments: PageSegment[] = [
      ...this.instructionSegments(),
      { text: 'Back to Search', role: 'button' },
      { text: '< Prev', role: 'button' },
    ];
    const clickables = new Map<string, Clickable>([
      [BACK_TO_SEARCH, { kind: 'button' }],
      [PREV_PAGE, { kind: 'button' }],
    ]);
    const chosen = new Set(Object.values(this.options));
    for (const [optionName, values] of Object.entries(product.options)) {
      segments.push({ text: optionName, role: 'text' });
      for (const value of values) {
        segments.push({ text: value, role: 'option', clicked: chosen.has(value) });
        clickables.set(value, { kind: 'option', optionName });
      }
    }
    segments.push(
      { text: product.Title, role: 'text' },
      { text: `Price: ${product.Price}`, role: 'text' },
      { text: `Rating: ${product.Rating}`, role: 'text' },
      { text: 'Description', role: 'button' },
      { text: 'Features', role: 'button' },
      { text: 'Reviews', role: 'button' },
    );
    for (const sub of ['description', 'features', 'reviews'] as const)
      clickables.set(sub, { kind: 'button' });
    if (this.showAttrs) {
      segments.push({ text: 'Attributes', role: 'button' });
      clickables.set('attributes', { kind: 'button' });
    }
    segments.push({ text: 'Buy Now', role: 'button' });
    clickables.set(BUY_NOW, { kind: 'button' });
    this.show(segments, clickables);
  }

  private showSubPage(): void {
    this.page = 'sub';
    const product = this.product();
    const segments: PageSegment[] = [
      ...this.instructionSegments(),
      { text: 'Back to Search', role: 'button' },
      { text: '< Prev', role: 'button' },
    ];
    if (this.subPage === 'description') segments.push({ text: product.Description, role: 'text' });
    else if (this.subPage === 'features') {
      for (const bullet of product.BulletPoints) segments.push({ text: bullet, role: 'text' });
    } else if (this.subPage === 'reviews') {
      for (const review of product.Reviews) {
        if (review.title) segments.push({ text: review.title, role: 'text' });
        segments.push({ text: String(review.score), role: 'text' }, { text: review.body, role: 'text' });
      }
    } else {
      for (const attribute of product.Attributes) segments.push({ text: attribute, role: 'text' });
    }
    this.show(
      segments,
      new Map([
        [BACK_TO_SEARCH, { kind: 'button' }],
        [PREV_PAGE, { kind: 'button' }],
      ]),
    );
  }

  private buy(): void {
    const product = this.product();
    const price = this.catalogue.prices.get(product.asin) ?? 100.0;
    const { reward, info } = getRewardWithInfo(product, this.goal, price, this.options);
    this.reward = reward;
    this.rewardInfo = info;
    this.purchase = { asin: product.asin, options: { ...this.options }, price };
    this.page = 'done';
    this.show(
      [
        { text: 'Thank you for shopping with us!', role: 'text' },
        { text: 'Your score (min 0.0, max 1.0)', role: 'text' },
        { text: String(reward), role: 'text' },
      ],
      new Map(),
    );
  }
}
