/**
 * Commands of the city half of the engine (MapLibre basemap, deck.gl, 3D Tiles). `EngineCommands`
 * extends this map, so each entry needs a handler in engine/city.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the city engine
export interface CityCommands {}
