export {
  type AlfworldGameFile,
  type LoadAlfworldOptions,
  loadAlfworldGame,
  recognizeGoal,
} from './load-alfworld-game.js';
