import { createInitialTourState, type TourState, type TourViewpoint } from '../../api/tour-commands'
import type { CitySceneContext } from '../city-scene-parts'

/**
 * The view tour (issue 18): MapLibre's `flyTo` (a smooth zoom-out, pan, zoom-in curve) carries
 * the camera to each viewpoint in turn; when the flight ends the camera stays the viewpoint's
 * dwell time, then flies on, from the last back to the first. A user's drag ends a flight early:
 * the tour then dwells where the user left it and goes on.
 */
export class ViewTour {
  private viewpoints: readonly TourViewpoint[] = []
  private transitionMs = 0
  private state: TourState = createInitialTourState()
  private dwellTimer: ReturnType<typeof setTimeout> | undefined
  /** Bumped by every open, close and leg, so a late `moveend` or timer of an old leg does nothing. */
  private leg = 0

  constructor(private readonly context: CitySceneContext) {}

  /** The tour state of the snapshot. */
  current(): TourState {
    return this.state
  }

  /** Opens the tour at its first viewpoint (see `tour.open`). */
  open(viewpoints: readonly TourViewpoint[], transitionSeconds: number): void {
    this.close()
    this.viewpoints = viewpoints.map((viewpoint) => ({ ...viewpoint }))
    this.transitionMs = transitionSeconds * 1000
    this.fly(0, 0)
  }

  /** Closes the tour; the camera stays. */
  close(): void {
    this.leg++
    clearTimeout(this.dwellTimer)
    if (this.state.mode === 0) this.context.map.stop()
    this.viewpoints = []
    this.state = createInitialTourState()
    this.context.publish({ tour: this.state })
  }

  dispose(): void {
    this.leg++
    clearTimeout(this.dwellTimer)
  }

  private fly(index: number, arrivals: number): void {
    const viewpoint = this.viewpoints[index]
    if (!viewpoint || this.context.isDisposed()) return
    const leg = ++this.leg
    const { map } = this.context
    this.state = { mode: 0, phase: 'flying', index, count: this.viewpoints.length, arrivals }
    this.context.publish({ tour: this.state })
    map.once('moveend', () => {
      if (leg === this.leg) this.arrive(index, arrivals + 1)
    })
    map.flyTo({
      center: [viewpoint.lng, viewpoint.lat],
      zoom: viewpoint.zoom,
      pitch: viewpoint.pitch,
      bearing: viewpoint.bearing,
      duration: this.transitionMs,
      // a tour is what the user asked to see: played even with reduced motion preferred
      essential: true,
    })
  }

  private arrive(index: number, arrivals: number): void {
    if (this.context.isDisposed()) return
    const leg = this.leg
    this.state = { ...this.state, phase: 'dwelling', arrivals }
    this.context.publish({ tour: this.state })
    const dwellMs = (this.viewpoints[index]?.dwellSeconds ?? 0) * 1000
    this.dwellTimer = setTimeout(() => {
      if (leg === this.leg) this.fly((index + 1) % this.viewpoints.length, arrivals)
    }, dwellMs)
  }
}
