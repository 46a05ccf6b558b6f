export { applyChatTurn, chatTurnsOf, encodeChatTurn } from './chat-turn-codec.js';
