/** The tiny-chat fixture's files by name, as `node scripts/make-tiny-chat.mjs` writes them. */
export function tinyChatFiles(): Record<string, string>;
export const SPECIAL: string[];
export const COLORS: string[];
export const SUBJECTS: string[];
