/**
 * Receptacle types as ALFWorld names them on screen (the PDDL `CabinetType` is shown as `cabinet`).
 * `openable` follows ALFRED: these start closed and must be opened before taking or placing.
 */
export interface ReceptacleKind {
  name: string;
  openable: boolean;
}

const OPENABLE = new Set(['cabinet', 'drawer', 'fridge', 'microwave', 'safe', 'box']);

export function isOpenableKind(name: string): boolean {
  return OPENABLE.has(name);
}

/** The appliance each transforming task needs, and the verb of its command. */
export const APPLIANCES = {
  heat: 'microwave',
  cool: 'fridge',
  clean: 'sinkbasin',
} as const;

/** Where a desk lamp can stand in a generated room. */
export const LAMP_HOSTS: readonly string[] = ['desk', 'sidetable', 'dresser'];
