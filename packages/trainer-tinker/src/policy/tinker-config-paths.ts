import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';

/** The files a `tokenizer` folder must hold: the model's tokenizer and its chat template. */
const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json'];

/**
 * A Tinker component's options with its `tokenizer` folder read relative to the config file (`configPath`),
 * as data paths are, so a config runs the same from any working directory.
 */
export function resolveTinkerPaths<T extends Readonly<Record<string, unknown>>>(
  options: T,
  configPath: string,
): T {
  const tokenizer = options.tokenizer;
  if (typeof tokenizer !== 'string' || isAbsolute(tokenizer)) return options;
  return { ...options, tokenizer: resolvePath(dirname(configPath), tokenizer) };
}

/**
 * The `tokenizer` folder a config's Tinker options name (read from the config's folder) holds the model's two
 * tokenizer files: a problem at `${path}.tokenizer` naming the folder and how to fetch them, otherwise none.
 */
export function checkTinkerTokenizerFolder(
  options: Readonly<Record<string, unknown>>,
  configPath: string,
  path: string,
): { path: string; message: string }[] {
  const tokenizer = resolveTinkerPaths(options, configPath).tokenizer;
  if (typeof tokenizer !== 'string') return [];
  const missing = TOKENIZER_FILES.filter((f) => !existsSync(join(tokenizer, f)));
  if (missing.length === 0) return [];
  return [
    {
      path: `${path}.tokenizer`,
      message: `${tokenizer} has no ${missing.join(' or ')} (the model's tokenizer files, e.g. \`huggingface-cli download <model> tokenizer.json tokenizer_config.json --local-dir <folder>\`)`,
    },
  ];
}
