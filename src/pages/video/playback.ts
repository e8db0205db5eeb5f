/** Why a stream does not play, as §8 catalogue codes (rendered by the player). */
export type PlaybackProblem = 'video.cannotPlay' | 'video.noSuitablePlayUrl' | 'video.oldBrowser'

/** A stream attached to a `<video>`: stop it to free the decoder, network and buffers. */
export interface Playback {
  stop(): void
}
