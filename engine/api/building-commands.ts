/**
 * Commands of the building half of the engine (three.js scene, SBM models, floors, picking,
 * GML networks). `EngineCommands` extends this map, so each entry needs a handler in
 * engine/building.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the building engine
export interface BuildingCommands {}
