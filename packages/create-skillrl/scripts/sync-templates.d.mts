/** Template name → the config it is copied from (relative to the package). */
export const TEMPLATE_SOURCES: Record<string, string>;
/** Template data file → its source (relative to the package). */
export const TEMPLATE_DATA: Record<string, string>;
/** A shipped config's text from its source's. */
export function asTemplate(text: string): string;
