import type { Selectable } from 'kysely'
import type { LocalizedText, OrderLineType, OrderUnit, PriceItem } from '../../../contract/orders'
import type { PriceItemsTable } from '../../migrations/0012-orders'
import { AppError } from '../../http/app-error'
import type { Database } from '../../plugins/db'

type PriceItemRow = Selectable<PriceItemsTable>

/** A price item as the services use it (amounts as numbers, texts parsed). */
export type PriceItemRecord = PriceItem

/** The items a fresh database starts with; an admin changes them with `updatePrice`. */
export const seededPriceItems: ReadonlyArray<Omit<PriceItem, 'updated_at' | 'is_active'>> = [
  {
    id: 'upload-traffic',
    type: '1',
    names: { ko: '업로드 트래픽', zh: '上传流量', en: 'Upload traffic' },
    unit: 'MB',
    price: 1,
    price_des: {
      ko: '마지막 결제 이후 업로드한 모델, 타일셋, GML, 베이스맵의 용량',
      zh: '自上次付款以来上传的模型、瓦片集、GML 和底图的大小',
      en: 'Models, tilesets, GML and basemaps uploaded since the last paid order',
    },
    price_des_state: '1',
    sort_order: 10,
  },
  {
    id: 'update-traffic',
    type: '2',
    names: { ko: '업데이트 트래픽', zh: '更新流量', en: 'Update traffic' },
    unit: 'MB',
    price: 1,
    price_des: {
      ko: '마지막 결제 이후 교체한 파일의 용량',
      zh: '自上次付款以来替换的文件大小',
      en: 'Files replaced since the last paid order',
    },
    price_des_state: '1',
    sort_order: 20,
  },
  {
    id: 'configuration-traffic',
    type: '3',
    names: { ko: '구성 트래픽', zh: '配置流量', en: 'Configuration traffic' },
    unit: 'operation',
    price: 1,
    price_des: {
      ko: '마지막 결제 이후 POI, 단일 건물 모델, 그리기와 스타일의 변경 횟수',
      zh: '自上次付款以来 POI、单体模型、绘制和样式的修改次数',
      en: 'Changes to POIs, single-building models, drawings and the style since the last paid order',
    },
    price_des_state: '1',
    sort_order: 30,
  },
  {
    id: 'watermark-removal',
    type: '4',
    names: { ko: '워터마크 제거', zh: '去除水印', en: 'Watermark removal' },
    unit: 'project',
    price: 500,
    price_des: {
      ko: '이 프로젝트의 오프라인 패키지에서 워터마크를 제거합니다',
      zh: '去除本项目离线包中的水印',
      en: "Removes the watermark from this project's offline package",
    },
    price_des_state: '1',
    sort_order: 40,
  },
  {
    id: 'support-community',
    type: '5',
    names: { ko: '커뮤니티 지원', zh: '社区支持', en: 'Community support' },
    unit: 'year',
    price: -1,
    price_des: { ko: '', zh: '', en: '' },
    price_des_state: '0',
    sort_order: 50,
  },
  {
    id: 'support-standard',
    type: '5',
    names: { ko: '표준 지원', zh: '标准支持', en: 'Standard support' },
    unit: 'year',
    price: 2000,
    price_des: {
      ko: '영업일 기준 하루 안에 답변',
      zh: '一个工作日内答复',
      en: 'An answer within one working day',
    },
    price_des_state: '1',
    sort_order: 51,
  },
  {
    id: 'support-enterprise',
    type: '5',
    names: { ko: '엔터프라이즈 지원', zh: '企业支持', en: 'Enterprise support' },
    unit: 'year',
    price: -9,
    price_des: {
      ko: '현장 지원과 전담 엔지니어: 문의해 주세요',
      zh: '现场支持与专属工程师：请联系我们',
      en: 'On-site support and a dedicated engineer: please contact us',
    },
    price_des_state: '1',
    sort_order: 52,
  },
  {
    id: 'development-trial',
    type: '6',
    names: { ko: '개발 체험', zh: '开发试用', en: 'Development trial' },
    unit: 'project',
    price: -1,
    price_des: {
      ko: '워터마크가 있는 오프라인 패키지를 무료로 내려받습니다',
      zh: '免费下载带水印的离线包',
      en: 'Download a watermarked offline package for free',
    },
    price_des_state: '1',
    sort_order: 60,
  },
]

/** A stored row as a price item. */
export function priceItemOf(row: PriceItemRow): PriceItem {
  return {
    id: row.id,
    type: row.type as OrderLineType,
    names: JSON.parse(row.names_json) as LocalizedText,
    unit: row.unit as OrderUnit,
    price: Number(row.price),
    price_des: JSON.parse(row.price_des_json) as LocalizedText,
    price_des_state: row.price_des_state === '1' ? '1' : '0',
    sort_order: row.sort_order,
    is_active: row.is_active === 1,
    updated_at: row.updated_at,
  }
}

/** Every price item, in dialog order (type, then sort order). */
export async function listPriceItems(db: Database): Promise<PriceItem[]> {
  const rows = await db
    .selectFrom('price_items')
    .selectAll()
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
  return rows.map(priceItemOf)
}

/** Inserts the seeded items that are missing (an admin's changes stay); resolves to how many. */
export async function seedPriceItems(db: Database, timestamp: string): Promise<number> {
  let inserted = 0
  for (const item of seededPriceItems) {
    const result = await db
      .insertInto('price_items')
      .values({
        id: item.id,
        type: item.type,
        names_json: JSON.stringify(item.names),
        unit: item.unit,
        price: item.price,
        price_des_json: JSON.stringify(item.price_des),
        price_des_state: item.price_des_state,
        sort_order: item.sort_order,
        is_active: 1,
        updated_at: timestamp,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst()
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n)
  }
  return inserted
}

/** The admin's side of prices: the list and one item's change. */
export interface PricesService {
  list(): Promise<PriceItem[]>
  update(input: {
    id: string
    price?: number | undefined
    names?: LocalizedText | undefined
    price_des?: LocalizedText | undefined
    price_des_state?: '0' | '1' | undefined
    is_active?: boolean | undefined
  }): Promise<PriceItem>
  /** Adds the seeded items missing from the database (at start-up). */
  seed(): Promise<number>
}

/** Builds the prices service. SQL for `price_items` lives in this file. */
export function createPricesService(dependencies: {
  db: Database
  now: () => string
}): PricesService {
  const { db, now } = dependencies
  return {
    list: () => listPriceItems(db),
    async update(input) {
      const result = await db
        .updateTable('price_items')
        .set({
          ...(input.price === undefined ? {} : { price: input.price }),
          ...(input.names === undefined ? {} : { names_json: JSON.stringify(input.names) }),
          ...(input.price_des === undefined
            ? {}
            : { price_des_json: JSON.stringify(input.price_des) }),
          ...(input.price_des_state === undefined
            ? {}
            : { price_des_state: input.price_des_state }),
          ...(input.is_active === undefined ? {} : { is_active: input.is_active ? 1 : 0 }),
          updated_at: now(),
        })
        .where('id', '=', input.id)
        .executeTakeFirst()
      if (result.numUpdatedRows !== 1n) throw new AppError('notFound', 'price.notFound')
      const row = await db
        .selectFrom('price_items')
        .selectAll()
        .where('id', '=', input.id)
        .executeTakeFirstOrThrow()
      return priceItemOf(row)
    },
    seed: () => seedPriceItems(db, now()),
  }
}
