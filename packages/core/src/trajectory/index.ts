export { environmentWon, stepWon } from './environment-won.js';
