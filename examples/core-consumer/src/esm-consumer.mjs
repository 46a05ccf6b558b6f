// A plain ESM consumer: what `import` resolves to through the package's "exports".
import { createRng, formatSkill, parseSkill, ValidationError, validate } from '@skillrl/core';

const skill = parseSkill(formatSkill({ name: 'demo', description: 'A demo skill.', body: '1. Do it.\n' }));
let issues = 0;
try {
  validate('verdict', { score: 2 });
} catch (e) {
  issues = ValidationError.isInstance(e) ? e.issues.length : -1;
}
console.log(JSON.stringify({ format: 'esm', first: createRng(42).float(), name: skill.name, issues }));
