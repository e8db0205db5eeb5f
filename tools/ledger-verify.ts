/**
 * `npm run ledger:verify`
 *
 * Checks the points ledger of the configured database (DATA_DIR's SQLite file, or
 * DATABASE_URL): every movement is two entries summing to zero, all entries sum to zero, each
 * cached balance equals its account's entries, no user balance is negative, and every paid
 * order was charged exactly once (server/modules/orders/ledger.ts `verifyLedger`). Prints one
 * JSON line; exits 1 when a problem is found, 2 when the database cannot be read.
 */
import { loadConfig } from '../server/config'
import { verifyLedger } from '../server/modules/orders/ledger'
import { openDatabase } from '../server/plugins/db'

const config = loadConfig()
const database = openDatabase(config.database)
let exitCode = 0
try {
  const report = await verifyLedger(database.db)
  console.log(JSON.stringify({ ok: report.problems.length === 0, ...report }))
  if (report.problems.length > 0) exitCode = 1
} catch (error) {
  console.error(`ledger:verify: ${error instanceof Error ? error.message : String(error)}`)
  exitCode = 2
} finally {
  await database.close()
}
process.exitCode = exitCode
