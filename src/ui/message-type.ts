/** The four kinds of feedback shared by toasts and confirm/alert dialogs (SPEC §2). */
export type MessageType = 'success' | 'warning' | 'info' | 'error'

/** Every {@link MessageType}, for iterating in tests and pickers. */
export const messageTypes: readonly MessageType[] = ['success', 'warning', 'info', 'error']
