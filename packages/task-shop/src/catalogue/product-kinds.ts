/**
 * The kinds of product the synthetic catalogue is made of, shaped like WebShop's scraped data: each kind is
 * one search `query` under one of WebShop's five categories, with an Amazon-style breadcrumb, a pool of
 * attribute phrases (what WebShop mined into `items_ins_v2`), and option dimensions. Attribute phrases in a
 * pool never contain one another, so a product whose text lacks an attribute cannot match it by substring.
 */
export interface ProductKind {
  category: 'beauty' | 'food' | 'fashion' | 'furniture' | 'electronics';
  query: string;
  product_category: string;
  /** The product-type noun phrase, singular, as it appears in titles and instructions. */
  noun: string;
  attributes: readonly string[];
  options: Readonly<Record<string, readonly string[]>>;
  /** Price bounds in dollars. */
  price: readonly [number, number];
}

const COLORS = [
  'black',
  'white',
  'navy blue',
  'light pink',
  'dark brown',
  'grey',
  'ivory',
  'olive green',
  'burgundy',
  'beige',
  'teal',
  'rose gold',
];
const CLOTHING_SIZES = ['x-small', 'small', 'medium', 'large', 'x-large', 'xx-large'];

export const PRODUCT_KINDS: readonly ProductKind[] = [
  {
    category: 'beauty',
    query: 'hair extensions',
    product_category: 'Beauty & Personal Care › Hair Care › Hair Extensions, Wigs & Accessories › Extensions',
    noun: 'clip-in hair extension',
    attributes: [
      'natural looking',
      'long lasting',
      'easy to apply',
      'heat resistant',
      'double weft',
      'human hair',
    ],
    options: {
      color: ['natural black', 'dark brown', 'ash blonde', 'auburn', 'platinum'],
      size: ['14 inch', '18 inch', '22 inch'],
    },
    price: [12, 89],
  },
  {
    category: 'beauty',
    query: 'deodorant',
    product_category: 'Beauty & Personal Care › Personal Care › Deodorants & Antiperspirants › Deodorant',
    noun: 'deodorant stick',
    attributes: [
      'aluminum free',
      'cruelty free',
      'sensitive skin',
      'travel size',
      'paraben free',
      'vegan formula',
    ],
    options: {
      scent: ['bright citrus', 'lavender sage', 'unscented', 'coconut vanilla'],
      size: ['2.5 ounce', '3 ounce (pack of 2)'],
    },
    price: [5, 24],
  },
  {
    category: 'beauty',
    query: 'face moisturizer',
    product_category: 'Beauty & Personal Care › Skin Care › Face › Creams & Moisturizers › Face Moisturizers',
    noun: 'face moisturizer cream',
    attributes: [
      'hyaluronic acid',
      'fragrance free',
      'oil free',
      'dermatologist tested',
      'anti aging',
      'non comedogenic',
    ],
    options: { size: ['1.7 fl oz', '3.4 fl oz'] },
    price: [8, 60],
  },
  {
    category: 'food',
    query: 'keto snacks',
    product_category: 'Grocery & Gourmet Food › Snacks & Sweets › Snack Bars › Protein Bars',
    noun: 'keto snack bar',
    attributes: ['low carb', 'gluten free', 'sugar free', 'high protein', 'non gmo', 'plant based'],
    options: {
      flavor: ['chocolate peanut butter', 'salted caramel', 'lemon poppy seed', 'cookie dough'],
      size: ['12 count', '24 count'],
    },
    price: [9, 45],
  },
  {
    category: 'food',
    query: 'herbal tea',
    product_category: 'Grocery & Gourmet Food › Beverages › Coffee, Tea & Cocoa › Tea › Herbal',
    noun: 'herbal tea bag',
    attributes: ['caffeine free', 'usda organic', 'kosher certified', 'individually wrapped', 'bpa free'],
    options: {
      flavor: ['chamomile', 'spiced chai', 'ginger turmeric', 'hibiscus'],
      size: ['20 count (pack of 3)', '100 count'],
    },
    price: [4, 30],
  },
  {
    category: 'fashion',
    query: 'women running shoes',
    product_category: 'Clothing, Shoes & Jewelry › Women › Shoes › Athletic › Running › Road Running',
    noun: 'running shoe',
    attributes: ['rubber sole', 'lace up', 'memory foam', 'non slip', 'arch support', 'machine washable'],
    options: { color: COLORS.slice(0, 6), size: ['6', '7', '7.5', '8', '9', '10'] },
    price: [25, 140],
  },
  {
    category: 'fashion',
    query: 'men hoodie',
    product_category: 'Clothing, Shoes & Jewelry › Men › Clothing › Fashion Hoodies & Sweatshirts',
    noun: 'pullover hoodie',
    attributes: [
      'long sleeve',
      'quick drying',
      'moisture wicking',
      'relaxed fit',
      'cotton blend',
      'drawstring closure',
    ],
    options: { color: COLORS.slice(3, 10), size: CLOTHING_SIZES },
    price: [15, 70],
  },
  {
    category: 'fashion',
    query: 'women sandals',
    product_category: 'Clothing, Shoes & Jewelry › Women › Shoes › Sandals › Flat Sandals',
    noun: 'flat sandal',
    attributes: ['open toe', 'ankle strap', 'faux leather', 'cushioned footbed', 'slip resistant'],
    options: { color: ['tan', 'black', 'white', 'silver', 'cognac'], size: ['6', '7', '8', '9'] },
    price: [18, 95],
  },
  {
    category: 'furniture',
    query: 'office chair',
    product_category: 'Home & Kitchen › Furniture › Home Office Furniture › Home Office Chairs › Desk Chairs',
    noun: 'ergonomic office chair',
    attributes: [
      'lumbar support',
      'height adjustable',
      'easy assembly',
      'mesh back',
      'heavy duty',
      'swivel base',
    ],
    options: { color: ['black', 'grey', 'white', 'navy blue'] },
    price: [60, 320],
  },
  {
    category: 'furniture',
    query: 'bookshelf',
    product_category: 'Home & Kitchen › Furniture › Living Room Furniture › Bookcases',
    noun: 'wooden bookshelf',
    attributes: ['solid wood', 'space saving', 'storage space', 'wall mounted', 'mid century'],
    options: { color: ['walnut', 'white', 'espresso', 'natural oak'], size: ['3 tier', '5 tier'] },
    price: [35, 260],
  },
  {
    category: 'electronics',
    query: 'wireless earbuds',
    product_category: 'Electronics › Headphones, Earbuds & Accessories › Earbuds',
    noun: 'wireless earbud',
    attributes: [
      'noise cancelling',
      'water resistant',
      'fast charging',
      'long battery life',
      'hands free',
      'touch control',
    ],
    options: { color: ['black', 'white', 'midnight blue'] },
    price: [19, 180],
  },
  {
    category: 'electronics',
    query: 'usb c charger',
    product_category: 'Electronics › Computers & Accessories › Laptop Accessories › Chargers & Adapters',
    noun: 'usb c wall charger',
    attributes: ['high speed', 'foldable plug', 'overcharge protection', 'compact design', 'dual port'],
    options: { size: ['20w', '45w', '65w', '100w'], color: ['white', 'black'] },
    price: [9, 70],
  },
];

/** Syllables for brand names: pronounceable, not English words, so they never collide with attributes. */
export const BRAND_SYLLABLES: readonly string[] = [
  'lu',
  'mor',
  'ka',
  'vex',
  'tri',
  'zen',
  'ora',
  'bel',
  'nix',
  'qua',
  'sol',
  'dri',
  'fen',
  'var',
  'pim',
  'tok',
];
