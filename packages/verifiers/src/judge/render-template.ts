import { InvalidArgumentError } from '@skillrl/core';

export const TEMPLATE_FIELDS = ['rubric', 'prompt', 'answer', 'reference', 'format'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

/** Fails at construction time on a `{{name}}` the judge cannot fill, rather than sending it to the model. */
export function checkTemplate(component: string, template: string): void {
  for (const m of template.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(m[1] ?? '')) {
      throw new InvalidArgumentError(
        `${component} options.template`,
        `unknown placeholder {{${m[1]}}}; available: ${TEMPLATE_FIELDS.map((f) => `{{${f}}}`).join(', ')}`,
      );
    }
  }
}

/** Fills `{{field}}` placeholders in one pass, so text inside a value is never itself treated as a placeholder. */
export function renderTemplate(template: string, values: Record<TemplateField, string>): string {
  return template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (whole, key: string) =>
    key in values ? values[key as TemplateField] : whole,
  );
}
