/**
 * `npm run gml:route -- <file.gml> <fromStateId> <toStateId>`
 *
 * Prints one JSON line: `{"path":["R10","R3",…],"length":13.367}` (length in file units,
 * rounded to 3 decimals), or `{"path":null}` when no route joins the two States; exit 0.
 * A bad file or an unknown State id exits 1 with the reason on stderr.
 */
import { findRoute, indexStates } from '../workers/indoor-route/route'
import { ShortestPathSearch } from '../workers/indoor-route/shortest-path'
import { CliError, loadGmlFile, runCli } from './gml-cli'

await runCli('gml:route', async () => {
  const [file, from, to, ...extra] = process.argv.slice(2)
  if (!file || !from || !to || extra.length > 0) {
    throw new CliError('usage: npm run gml:route -- <file.gml> <fromStateId> <toStateId>', 2)
  }
  const { graph } = await loadGmlFile(file)
  const route = findRoute(graph, indexStates(graph), new ShortestPathSearch(graph), from, to)
  const line =
    route.path === null
      ? { path: null }
      : { path: route.path, length: Math.round(route.length * 1000) / 1000 }
  console.log(JSON.stringify(line))
})
