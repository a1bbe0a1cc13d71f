// silicon: the Lua 5.4 sandbox host. See README.md in this folder.
export { closeSharedSiliconPool, existingSharedSiliconPool, getSharedSiliconPool, SiliconPool } from './pool';
export {
  ConsoleLevel,
  type ConsoleLevelCode,
  DEFAULT_LIMITS,
  type SiliconConsoleEntry,
  type SiliconHostFunction,
  type SiliconLimits,
  type SiliconPoolOptions,
  type SiliconPoolStats,
  type SiliconRunRequest,
  type SiliconRunResult,
  SiliconStatus,
  type SiliconStatusCode,
} from './types';
