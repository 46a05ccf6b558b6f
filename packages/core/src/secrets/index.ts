export { redactObject, redactSecrets, registerSecret } from './redact-secrets.js';
export { redactUrl, redactUrlsIn } from './redact-url.js';
