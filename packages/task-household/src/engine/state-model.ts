import type { HouseholdEnvironment } from './household-environment.js';
import type { FormulaModel } from './pddl-formula.js';

/**
 * The engine's state seen as PDDL facts, so a loaded game's goal formula is evaluated as written. Dynamic
 * predicates read the state arrays; every other predicate is a static fact of the problem's `:init`.
 */
export function createStateModel(env: HouseholdEnvironment): FormulaModel | undefined {
  const pddl = env.game.pddl;
  if (!pddl) return undefined;
  const index = (names: readonly string[]): Map<string, number> => new Map(names.map((n, i) => [n, i]));
  const obj = index(pddl.objects);
  const rec = index(pddl.receptacles);
  const loc = index(pddl.locations);
  const all = [...pddl.agents, ...pddl.locations, ...pddl.receptacles, ...pddl.objects];
  const flag = (arr: Uint8Array, name: string | undefined): boolean => {
    const i = obj.get(name ?? '');
    return i !== undefined && arr[i] === 1;
  };
  return {
    domain(type) {
      switch (type) {
        case 'object':
          return pddl.objects;
        case 'receptacle':
          return pddl.receptacles;
        case 'location':
          return pddl.locations;
        case 'agent':
          return pddl.agents;
        default:
          return all;
      }
    },
    atom(predicate, args) {
      const [x, y] = args;
      switch (predicate) {
        case '=':
          return x === y;
        case 'atlocation':
          if (x === pddl.player) return loc.get(y ?? '') === env.agentLocation;
          break;
        case 'holds':
          return x === pddl.player && env.holding >= 0 && obj.get(y ?? '') === env.holding;
        case 'holdsany':
          return x === pddl.player && env.holding >= 0;
        case 'inreceptacle': {
          const o = obj.get(x ?? '');
          return o !== undefined && env.objectIn[o] === rec.get(y ?? '');
        }
        case 'objectatlocation': {
          const o = obj.get(x ?? '');
          return o !== undefined && env.objectLocation[o] === loc.get(y ?? '');
        }
        case 'opened': {
          const r = rec.get(x ?? '');
          return r !== undefined && env.opened[r] === 1;
        }
        case 'ishot':
          return flag(env.hot, x);
        case 'iscool':
          return flag(env.cool, x);
        case 'isclean':
          return flag(env.clean, x);
        case 'ison':
          return flag(env.on, x);
        case 'istoggled':
          return flag(env.toggled, x);
        case 'issliced':
          return flag(env.sliced, x);
        case 'objecttype': {
          const o = obj.get(x ?? '');
          return o !== undefined && pddl.objectTypes[o] === y;
        }
        case 'receptacletype': {
          const r = rec.get(x ?? '');
          return r !== undefined && pddl.receptacleTypes[r] === y;
        }
      }
      return pddl.staticFacts.has(`${predicate} ${args.join(' ')}`);
    },
  };
}
