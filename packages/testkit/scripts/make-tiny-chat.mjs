// Writes fixtures/tiny-chat: a tiny word-level chat tokenizer (Hugging Face `tokenizer.json` with a WordPiece
// model over whole words, and `tokenizer_config.json` with a ChatML-style `chat_template`) and the base models
// the fake Tinker server hosts over it (`base-models.json`: the bigram corpus each one is "pretrained" on, and
// which tokens its copy prior favours). Deterministic: `node scripts/make-tiny-chat.mjs` rewrites the same
// bytes, and a test checks the committed files against it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const out = join(import.meta.dirname, '..', 'fixtures', 'tiny-chat');

export const SPECIAL = ['<unk>', '<|endoftext|>', '<|im_start|>', '<|im_end|>'];
export const COLORS = ['red', 'blue', 'green', 'yellow', 'white', 'black', 'orange', 'purple'];
export const SUBJECTS = ['sky', 'grass', 'fire', 'snow', 'night', 'sun', 'sea', 'leaf', 'coal', 'lemon'];
const WORDS = [
  // the chat template's roles
  'system',
  'user',
  'assistant',
  // punctuation runs the Whitespace pre-tokenizer keeps whole
  '.',
  ',',
  '?',
  '!',
  ':',
  '-',
  '#',
  '(',
  ')',
  "'",
  '"',
  '<',
  '>',
  '/',
  '</',
  '="',
  '">',
  '`',
  '```',
  '---',
  '*',
  '_',
  ...COLORS,
  ...SUBJECTS,
  // words of the prompts the examples send (the rest of a prompt reads as <unk>)
  'a',
  'about',
  'action',
  'actions',
  'agent',
  'always',
  'an',
  'and',
  'answer',
  'answers',
  'are',
  'as',
  'asked',
  'at',
  'be',
  'best',
  'by',
  'color',
  'colors',
  'completes',
  'correct',
  'current',
  'description',
  'do',
  'each',
  'environment',
  'exactly',
  'first',
  'follow',
  'for',
  'form',
  'from',
  'generation',
  'give',
  'good',
  'history',
  'how',
  'if',
  'in',
  'is',
  'it',
  'last',
  'name',
  'need',
  'never',
  'next',
  'not',
  'of',
  'on',
  'one',
  'only',
  'or',
  'question',
  'reply',
  'revision',
  'reward',
  'right',
  'say',
  'skill',
  'skills',
  'start',
  'step',
  'task',
  'tasks',
  'text',
  'that',
  'the',
  'then',
  'think',
  'this',
  'time',
  'to',
  'use',
  'what',
  'when',
  'where',
  'which',
  'with',
  'word',
  'write',
  'wrong',
  'you',
  'your',
  'briefly',
  'applies',
  'new',
  'old',
  'mean',
  'none',
  'yet',
  ...Array.from({ length: 10 }, (_, i) => String(i)),
  ...Array.from({ length: 10 }, (_, i) => `##${i}`),
];

function vocabulary() {
  const vocab = {};
  for (const token of [...SPECIAL, ...WORDS]) {
    if (token in vocab) throw new Error(`duplicate token ${token}`);
    vocab[token] = Object.keys(vocab).length;
  }
  return vocab;
}

function tokenizerJson(vocab) {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '<unk>',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

// ChatML, as Qwen's templates write it: <|im_start|>role\ncontent<|im_end|>\n, then the generation prompt.
const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

function tokenizerConfig() {
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    model_max_length: 4096,
    bos_token: null,
    eos_token: '<|im_end|>',
    pad_token: '<|endoftext|>',
    unk_token: '<unk>',
    clean_up_tokenization_spaces: true,
    chat_template: CHAT_TEMPLATE,
    added_tokens_decoder: Object.fromEntries(
      SPECIAL.map((content, id) => [
        String(id),
        { content, lstrip: false, normalized: false, rstrip: false, single_word: false, special: true },
      ]),
    ),
  };
}

function baseModels(vocab) {
  const ids = (words) =>
    words.map((w) => {
      const id = vocab[w];
      if (id === undefined) throw new Error(`no token ${w}`);
      return id;
    });
  const colorIds = ids(COLORS);
  // The words that tell the tasks apart are the adapter's context features.
  const features = ids([...SUBJECTS, ...COLORS]);
  // The agent answers one word: after the generation prompt a color, then the end of the turn.
  const agentCorpus = COLORS.map((c) => ids(['assistant', c, '<|im_end|>']));
  // The editor writes a one-line skill body: "# answer <color> ." and ends the turn.
  const editorCorpus = COLORS.map((c) => ids(['assistant', '#', 'answer', c, '.', '<|im_end|>']));
  const common = {
    vocabSize: Object.keys(vocab).length,
    eosTokenId: vocab['<|im_end|>'],
    // Additive smoothing of the bigram counts: tokens never seen after a token keep a little mass.
    smoothing: 0.0002,
  };
  return {
    'skillrl/tiny-chat': {
      ...common,
      description: 'a one-word answerer: a color after the generation prompt, favouring colors it has read',
      corpus: agentCorpus,
      copy: { tokens: colorIds, weight: 2 },
      features,
    },
    'skillrl/tiny-editor': {
      ...common,
      description: 'a skill writer: "# answer <color> ." after the generation prompt',
      corpus: editorCorpus,
      copy: { tokens: colorIds, weight: 0 },
      features,
    },
  };
}

export function tinyChatFiles() {
  const vocab = vocabulary();
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'tokenizer.json': json(tokenizerJson(vocab)),
    'tokenizer_config.json': json(tokenizerConfig()),
    'base-models.json': json(baseModels(vocab)),
  };
}

if (process.argv[1] === import.meta.filename) {
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(tinyChatFiles())) writeFileSync(join(out, name), text);
  console.log(`wrote ${out}`);
}
