/**
 * `npm run gml:info -- <file.gml>`
 *
 * Prints one JSON line with the counts of the file's navigation network: States,
 * Transitions (as written), merged edges, SpaceLayers, storeys, connected components, and
 * how many references were repaired or left out. A bad file exits 1 with the reason.
 */
import { graphInfo } from '../workers/indoor-route/navigation-graph'
import { CliError, loadGmlFile, runCli } from './gml-cli'

await runCli('gml:info', async () => {
  const [file, ...extra] = process.argv.slice(2)
  if (!file || extra.length > 0) {
    throw new CliError('usage: npm run gml:info -- <file.gml>', 2)
  }
  const built = await loadGmlFile(file)
  const info = graphInfo(built.graph)
  console.log(
    JSON.stringify({
      states: info.states,
      transitions: info.transitions,
      edges: info.edges,
      layers: info.layers,
      storeys: info.storeys,
      components: info.components,
      largestComponent: info.largestComponent,
      isolatedStates: info.isolatedStates,
      interLayerConnections: info.interLayerConnections,
      repairs: built.repairCount,
      warnings: built.warningCount,
      storeyLabels: info.storeyLabels,
      layerIds: info.layerIds,
    }),
  )
})
