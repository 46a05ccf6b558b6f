export { redactObject, redactSecrets, registerSecret } from './redact-secrets.js';
