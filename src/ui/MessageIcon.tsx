import type { MessageType } from './message-type'

const paths: Record<MessageType, string> = {
  success: 'M7 12.5l3 3 7-7',
  warning: 'M12 7v6 M12 16.5v.5',
  info: 'M12 11v6 M12 7.5v.5',
  error: 'M8.5 8.5l7 7 M15.5 8.5l-7 7',
}

/** The round icon of a message type; decorative, since the text around it says the same. */
export function MessageIcon({ type }: { type: MessageType }) {
  return (
    <svg
      className={`ts-message-icon ts-message-icon--${type}`}
      viewBox="0 0 24 24"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="10" />
      <path d={paths[type]} />
    </svg>
  )
}
