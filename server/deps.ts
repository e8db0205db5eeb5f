import type { ObliquePhotograph } from '../contract/city'
import type { Config } from './config'
import type { OpenApiRegistry } from './http/openapi'
import type { ProjectAccess } from './modules/access/project-access'
import type { AccountRepositories, AccountServices } from './modules/accounts/accounts'
import type { UsersRepository } from './modules/accounts/users.repository'
import type { UsersService } from './modules/accounts/users.service'
import type { AuthService } from './modules/auth/auth.service'
import type { SessionsRepository } from './modules/auth/sessions.repository'
import type { BasemapsService } from './modules/basemaps/basemaps.service'
import type { BuildingService } from './modules/building/building.service'
import type { ModelDetailsService } from './modules/model-config/model-details'
import type { MaterialsService } from './modules/materials/materials.service'
import type { StructureAdds } from './modules/model-config/structure-add'
import type { StructureMerges } from './modules/model-config/structure-merge'
import type { ConversionPool } from './modules/building/conversion-pool'
import type { FolderSweeper } from './modules/files/folder-sweeper'
import type { GeocodingService } from './modules/geo/online-geocoder'
import type { GisModelsService } from './modules/gis-models/gis-models.service'
import type { DrawService } from './modules/draw/draw.service'
import type { TrackingService } from './modules/draw/tracking.service'
import type { LocationAnchorsService } from './modules/draw/location-anchors.service'
import type { ViewTourService } from './modules/draw/view-tour.service'
import type { CityModelsService } from './modules/city-models/city-models.service'
import type { GmlService } from './modules/gml/gml.service'
import type { InvestigationsService } from './modules/iot/investigations.service'
import type { IotServices } from './modules/iot/iot'
import type { CamerasService } from './modules/video/cameras.service'
import type { JobKind, JobQueue } from './modules/jobs/job-queue'
import type { MapProxy } from './modules/map-proxy/map-proxy.service'
import type { NoticesRepository } from './modules/notices/notices.repository'
import type { NoticesService } from './modules/notices/notices.service'
import type { OfflinePackagesService } from './modules/orders/offline-packages.service'
import type { OrdersService } from './modules/orders/orders.service'
import type { PaymentProviders } from './modules/orders/payment-providers'
import type { PricesService } from './modules/orders/price-items'
import type { RechargesService } from './modules/orders/recharges.service'
import type { ModelCopyService } from './modules/pois/model-copy.service'
import type { PoiBatchService } from './modules/pois/poi-batch.service'
import type { PoiListBodies } from './modules/pois/poi-list-body-job'
import type { PoisService } from './modules/pois/pois.service'
import type { ProjectsService } from './modules/projects/projects.service'
import type { StyleService } from './modules/style/style.service'
import type { CapturesService } from './modules/visit/captures.service'
import type { CasesService } from './modules/cases/cases.service'
import type { UploadsService } from './modules/projects/uploads.service'
import type { ResumableUploads } from './modules/resumable-uploads/resumable-uploads'
import type { cityDirectories } from './modules/tilesets/served-files'
import type { TilesetIngestInput } from './modules/tilesets/tileset-ingest-job'
import type { TilesetsService } from './modules/tilesets/tilesets.service'
import type { CategoriesService } from './modules/templates/categories.service'
import type { TemplatePartsService } from './modules/templates/template-parts.service'
import type { TemplatePoisService } from './modules/templates/template-pois.service'
import type { TemplatesService } from './modules/templates/templates.service'
import type { Clock } from './modules/time/clock'
import type { ProcessCoordination } from './plugins/coordination'
import type { DatabaseHandle } from './plugins/db'
import type { FileStorage, NamedFiles } from './plugins/storage'
import type { PoiBatchFilesService } from './modules/template-files/poi-batch-files.service'
import type { PoiBatchFileReader } from './modules/template-files/poi-batch-file-job'
import type { TemplateModelsService } from './modules/template-files/template-models.service'

/** The project area's services: projects, image uploads, access and the map picker's geocoding. */
export interface ProjectServices {
  projects: ProjectsService
  uploads: UploadsService
  /** The map picker's search and reverse geocoding: online when configured, else offline. */
  geocoding: GeocodingService
  /**
   * Who may do what on a project, and the signing of file addresses: every area checks
   * project access and signs and checks its file addresses through this one module.
   */
  access: ProjectAccess
}

/** The building area's services: models and floors, and the pool that converts models. */
export interface BuildingServices {
  building: BuildingService
  conversions: ConversionPool
}

/** The file side of POI templates (issue 15): 3D template models and batch-POI files. */
export interface TemplateFileServices {
  templateModels: TemplateModelsService
  /** The template models' files, in the file store (a folder or a bucket). */
  templateModelFiles: NamedFiles
  poiBatchFiles: PoiBatchFilesService
  /** Filled batch-POI files read and checked in a worker thread (both batch calls use it). */
  poiBatchFileReader: PoiBatchFileReader
  /** Where received template zips wait while they are inspected. */
  templateFileDirectories: { incoming: string }
}

/** The city area's services (issue #7): tilesets, GIS models, basemaps and the map proxy. */
export interface CityServices {
  tilesets: TilesetsService
  /** Tileset ingest as a job of the app's queue (fair between users, time-limited). */
  tilesetIngest: JobKind<TilesetIngestInput, ObliquePhotograph>
  gisModels: GisModelsService
  /** Areas and paths drawn on the map (issue 18), measured on the server. */
  draw: DrawService
  /** Electronic fences and GPS positioning (issue 18). */
  tracking: TrackingService
  /** Anchor points of building models and city tilesets (issue 18), both project kinds. */
  locationAnchors: LocationAnchorsService
  /** The view tour's viewpoints (issue 18). */
  viewTour: ViewTourService
  /** The city model library (issue 21): glTF/SBM models placed on the map. */
  cityModels: CityModelsService
  basemaps: BasemapsService
  /** Online styles through the server (server/modules/map-proxy). */
  mapProxy: MapProxy
  /** Where the city's files live under DATA_DIR. */
  cityDirectories: ReturnType<typeof cityDirectories>
  /** The tileset versions' files, in the file store (a folder or a bucket). */
  tilesetFiles: NamedFiles
  /** The PMTiles basemaps' archives, in the file store (a folder or a bucket). */
  basemapFiles: NamedFiles
}

/** POI categories and templates (issue 15). */
export interface TemplateServices {
  categories: CategoriesService
  templates: TemplatesService
  templateParts: TemplatePartsService
  templatePois: TemplatePoisService
}

/** Every service of the app, made once in server/composition.ts and handed to the routes. */
export type ServerServices = {
  auth: AuthService
  users: UsersService
  notices: NoticesService
  gml: GmlService
  /** The global style setting of projects (issue 19). */
  style: StyleService
  /** The structure merge of the model configuration tools (issue 21). */
  structureMerges: StructureMerges
  /** Finished merges' ZIPs, in the file store (a folder or a bucket). */
  structureMergeFiles: NamedFiles
  /** The structure add of the model configuration tools (issue 21). */
  structureAdds: StructureAdds
  /** Per-model details of building projects (issue 21). */
  modelDetails: ModelDetailsService
  /** The material library and mesh overrides (issue 21). */
  materials: MaterialsService
  /** Visit mode's captures and the public preview's check (issue 19). */
  captures: CapturesService
  /** The curated project cases (`/case` menu and detail, issue 19). */
  cases: CasesService
  /** tus uploads (`/web/upload/resumable`), claimed by the upload routes through `upload_id`. */
  resumableUploads: ResumableUploads
  /** Inspection records of alarms and POIs (issue 17 item 7). */
  investigations: InvestigationsService
  /** A project's cameras and how each stream is played (issue 17 §8). */
  cameras: CamerasService
} & AccountServices &
  ProjectServices &
  BuildingServices &
  CityServices &
  TemplateServices &
  TemplateFileServices &
  PoiServices &
  IotServices &
  OrderServices

/** Points, orders and recharges (issue 20): one ledger under all three. */
export interface OrderServices {
  orders: OrdersService
  recharges: RechargesService
  prices: PricesService
  /** Payment providers whose signed callbacks confirm recharges, by name. */
  paymentProviders: PaymentProviders
  /** The offline package: state, background build, download (issue 20 item 6). */
  offlinePackages: OfflinePackagesService
}

/** POIs (issue 16): the records and the batch add from a filled XLSX or a CSV. */
export interface PoiServices {
  pois: PoisService
  poiBatch: PoiBatchService
  /** The list calls' bodies, large ones parsed in a worker thread. */
  poiListBodies: PoiListBodies
  /** A city model copied with its POIs (contract/model-copy.ts). */
  modelCopy: ModelCopyService
}

/**
 * Everything routes build on, made once per app by `composeServer` (server/composition.ts) and
 * kept as `app.deps`. A new area adds its repository and service there; services receive only
 * the pieces they use (architecture.md §5).
 */
export interface ServerDeps {
  config: Config
  clock: Clock
  database: DatabaseHandle
  storage: FileStorage
  /** Locks the server processes sharing the database agree on (server/plugins/coordination.ts). */
  coordination: ProcessCoordination
  /** The one queue of background work (conversions, tileset ingest …), fair between users. */
  jobs: JobQueue
  /** The one sweeper of leftover files: areas add their tasks; it runs at start-up and hourly. */
  sweeper: FolderSweeper
  repositories: {
    users: UsersRepository
    sessions: SessionsRepository
    notices: NoticesRepository
  } & AccountRepositories
  services: ServerServices
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's database, storage, repositories and services. */
    deps: ServerDeps
    /** The routes registered through defineRoute, for `GET /web/openapi.json`. */
    openApi: OpenApiRegistry
  }
}
