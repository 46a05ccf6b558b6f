// A plain CommonJS consumer: what `require` resolves to through the package's "exports".
const { createRng, formatSkill, parseSkill, validate, ValidationError } = require('@skillrl/core');

const skill = parseSkill(formatSkill({ name: 'demo', description: 'A demo skill.', body: '1. Do it.\n' }));
let issues = 0;
try {
  validate('verdict', { score: 2 });
} catch (e) {
  issues = ValidationError.isInstance(e) ? e.issues.length : -1;
}
console.log(JSON.stringify({ format: 'cjs', first: createRng(42).float(), name: skill.name, issues }));
