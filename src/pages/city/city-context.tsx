import { createContext, type ReactNode, useContext } from 'react'
import { useSnapshot } from 'valtio'
import { useProjectPermissions } from '../../components/project/project-permissions'
import type { CityProjectState } from './city-project-store'

const CityProjectContext = createContext<CityProjectState | null>(null)

/** Hands the editor's project store to the map host, the tabs and the status bar. */
export function CityProjectProvider({
  store,
  children,
}: {
  store: CityProjectState
  children: ReactNode
}) {
  return <CityProjectContext value={store}>{children}</CityProjectContext>
}

/** The open city project's store (see city-project-store.ts). */
export function useCityProjectStore(): CityProjectState {
  const store = useContext(CityProjectContext)
  if (!store) throw new Error('useCityProjectStore() needs a <CityProjectProvider> above it')
  return store
}

/**
 * Whether the caller may change the open city project (its `permissions` from the server, by
 * the rule the server enforces): the tabs hide upload, change and delete controls otherwise.
 */
export function useCanEditCityProject(): boolean {
  const { project } = useSnapshot(useCityProjectStore())
  return useProjectPermissions(project).canEdit
}
