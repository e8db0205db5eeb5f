import { useLingui } from '@lingui/react/macro'
import { Suspense, useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { usePermissions } from '../components/use-permissions'
import { NoPermission } from '../pages/misc/NotFoundPage'
import { PlannedPage } from '../pages/planned/PlannedPage'
import { isSignedIn, session } from '../state/session'
import { Spinner } from '../ui'
import { EditorFrame, ShellFrame } from './frames/ShellFrame'
import { SignFrame } from './frames/SignFrame'
import { guardNavigation } from './guard'
import { type HashLocation, navigateHash, useHashPath, useHashSearch } from './hash-location'
import { matchAppRoute, pageTitle } from './route-table'
import { planned, routePages } from './routes'
import { useServices } from './services'

/**
 * Runs the SPEC §2 guard on every location change and renders the approved page in its frame.
 * Until the guard approves a location the previous page stays (nothing on first load), so a
 * protected page never flashes before a redirect to sign-in.
 */
export function AppRoutes() {
  const [path] = useHashPath()
  const search = useHashSearch()
  const services = useServices()
  const [approved, setApproved] = useState<HashLocation | null>(null)
  // vue-router's start location is `/`; guard rule 2 compares against it.
  const fromPathRef = useRef('/')

  useEffect(() => {
    let isCurrent = true
    const wanted = { path, search }
    guardNavigation(wanted, fromPathRef.current, {
      isSignedIn: () => isSignedIn(session),
      hasUserData: () => session.userData !== null,
      refreshToken: services.refreshToken,
      fetchUserData: async () => {
        await services.fetchCurrentUser()
      },
      signOut: services.signOut,
    }).then((outcome) => {
      // A newer navigation started while this one was being judged: its own run decides.
      if (!isCurrent) return
      if (outcome.kind === 'redirect') {
        navigateHash(outcome.to, { replace: true })
        return
      }
      fromPathRef.current = wanted.path
      setApproved(wanted)
    })
    return () => {
      isCurrent = false
    }
  }, [path, search, services])

  if (!approved) return null
  return <ApprovedPage location={approved} />
}

function ApprovedPage({ location }: { location: HashLocation }) {
  const { i18n } = useLingui()
  const { route, params } = matchAppRoute(location.path)
  const permissions = usePermissions()
  // Re-render when the session changes so a page can react to sign-out or a new user.
  useSnapshot(session)

  const title = pageTitle(i18n, route)
  useEffect(() => {
    document.title = title
  }, [title])

  const Page = routePages[route.id]
  const page =
    route.isAdminOnly && !permissions.isAdmin ? (
      <NoPermission />
    ) : Page === planned ? (
      <PlannedPage routeId={route.id} />
    ) : (
      // The frame stays on screen while a page's chunk loads (routes.tsx loads them lazily).
      <Suspense fallback={<PageLoading />}>
        <Page params={params} search={location.search} />
      </Suspense>
    )
  if (route.frame === 'sign') return <SignFrame>{page}</SignFrame>
  if (route.frame === 'shell') return <ShellFrame>{page}</ShellFrame>
  if (route.frame === 'editor') return <EditorFrame>{page}</EditorFrame>
  return page
}

function PageLoading() {
  const { t } = useLingui()
  return (
    <div className="ts-page-loading">
      <Spinner sizePx={32} label={t`Loading the page…`} />
    </div>
  )
}
