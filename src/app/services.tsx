import { createContext, type ReactNode, useContext } from 'react'
import {
  checkResetCode,
  isEmailTaken,
  requestMailCode,
  requestSignInCode,
  requestSmsCode,
  resetPasswordByTel,
} from '../api/auth'
import { markNoticeRead, queryNotices } from '../api/notice'
import { fetchRoleMenuKeys } from '../api/user'
import {
  fetchCurrentUser,
  refreshToken,
  registerByMail,
  registerByTel,
  signInAsGuest,
  signInWithPassword,
  signInWithTicket,
  signOut,
} from '../state/account'

/**
 * The server calls the app frame makes on its own (guard, sign pages, bell, menu), gathered in
 * one object so a test can run the real screens against its own answers without a server.
 */
export const defaultServices = {
  signInWithPassword,
  signInWithTicket,
  signInAsGuest,
  requestSignInCode,
  requestSmsCode,
  registerByTel,
  requestMailCode,
  isEmailTaken,
  registerByMail,
  checkResetCode,
  resetPasswordByTel,
  refreshToken,
  fetchCurrentUser,
  signOut,
  queryNotices,
  markNoticeRead,
  fetchRoleMenuKeys,
}

/** The calls of {@link defaultServices}; a test passes its own implementation. */
export type AppServices = typeof defaultServices

const ServicesContext = createContext<AppServices>(defaultServices)

/** Provides the services to the app; only tests pass anything but the defaults. */
export function ServicesProvider({
  services,
  children,
}: {
  services: AppServices
  children: ReactNode
}) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>
}

/** The services in effect. */
export function useServices(): AppServices {
  return useContext(ServicesContext)
}
