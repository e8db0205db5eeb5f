import { runCityTilesBench } from '/work/main/bench/city-tiles'
const report = await runCityTilesBench({ rounds: 1 })
console.log(JSON.stringify({ ratios: report.ratios, goals: report.goals, ours: report.ours.peakTileMemory, anchor: report.anchor.peakTileMemory }, null, 1))
