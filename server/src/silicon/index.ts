// silicon: the Lua 5.4 sandbox host. See README.md in this folder.
export { closeSharedSiliconPool, existingSharedSiliconPool, getSharedSiliconPool, SiliconPool } from './pool';
export {
  type SiliconHostFunction,
  type SiliconRunResult,
  SiliconStatus,
} from './types';
