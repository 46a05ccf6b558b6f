export { OBJECT_KINDS, type ObjectKind, objectKind } from './object-types.js';
export { APPLIANCES, isOpenableKind, LAMP_HOSTS, type ReceptacleKind } from './receptacle-types.js';
export { type CountRange, ROOMS, type RoomKind } from './rooms.js';
