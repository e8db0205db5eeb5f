import { useEffect } from 'react'
import { type FileAddressRenewer, setFileAddressRenewer } from '../../engine/api'

/**
 * Keeps the open scene's file addresses (tiles, basemap, models, GML) working past their
 * expiry, for a page left open all day: while mounted, the engine may call `findAgain` (the
 * find calls the page opened the project with) when the server refuses an address, and
 * retries with the fresh one (engine/core/file-addresses.ts). Pass a stable function
 * (useCallback on the project), or null while no project is open.
 */
export function useFileAddressRenewal(findAgain: FileAddressRenewer | null): void {
  useEffect(() => {
    if (findAgain === null) return
    setFileAddressRenewer(findAgain)
    return () => setFileAddressRenewer(null)
  }, [findAgain])
}
