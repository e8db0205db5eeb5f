import type { MessageLanguage } from '../messaging/message-texts'

/**
 * The columns of the batch-POI template file (issue 15 item 5): the POI fields a person fills
 * per row (SPEC §3 "POI/model record", the ones a batch import can set), then the template's
 * static attributes. The header row holds the keys, so a file filled in any language reads the
 * same; the second sheet explains each column in the user's language.
 */

/** How a cell of a column is checked. */
export type PoiColumnKind =
  | { type: 'text'; maxLength: number }
  | { type: 'number'; minimum?: number; maximum?: number }

/** One column of the file. */
export interface PoiBatchColumn {
  key: string
  isRequired: boolean
  kind: PoiColumnKind
  /** The column's name and what to put in it, per language (static attributes: their own). */
  label: Record<MessageLanguage, string>
  description: Record<MessageLanguage, string>
  example: string
}

/** The POI fields every batch file starts with. */
export const poiFieldColumns: readonly PoiBatchColumn[] = [
  {
    key: 'name',
    isRequired: true,
    kind: { type: 'text', maxLength: 100 },
    label: { ko: '이름', zh: '名称', en: 'Name' },
    description: {
      ko: 'POI 이름 (필수, 100자 이내)',
      zh: 'POI 名称（必填，不超过 100 个字符）',
      en: 'The POI name (required, up to 100 characters)',
    },
    example: 'Camera 01',
  },
  {
    key: 'devicecode',
    isRequired: false,
    kind: { type: 'text', maxLength: 100 },
    label: { ko: '장치 코드', zh: '设备编码', en: 'Device code' },
    description: {
      ko: '연결할 IoT 장치의 코드 (선택)',
      zh: '关联的物联网设备编码（可选）',
      en: 'The code of the IoT device it is linked to (optional)',
    },
    example: 'CAM-0001',
  },
  {
    key: 'x',
    isRequired: true,
    kind: { type: 'number' },
    label: { ko: 'X / 경도', zh: 'X / 经度', en: 'X / longitude' },
    description: {
      ko: '도시 프로젝트: 경도(도), 건물 프로젝트: 모델 좌표 X(미터)',
      zh: '城市项目：经度（度）；建筑项目：模型坐标 X（米）',
      en: 'City project: longitude in degrees; building project: model X in metres',
    },
    example: '121.5',
  },
  {
    key: 'y',
    isRequired: true,
    kind: { type: 'number' },
    label: { ko: 'Y / 위도', zh: 'Y / 纬度', en: 'Y / latitude' },
    description: {
      ko: '도시 프로젝트: 위도(도), 건물 프로젝트: 모델 좌표 Y(미터)',
      zh: '城市项目：纬度（度）；建筑项目：模型坐标 Y（米）',
      en: 'City project: latitude in degrees; building project: model Y in metres',
    },
    example: '31.2',
  },
  {
    key: 'z',
    isRequired: false,
    kind: { type: 'number', minimum: -100_000, maximum: 100_000 },
    label: { ko: 'Z / 높이', zh: 'Z / 高度', en: 'Z / height' },
    description: {
      ko: '높이(미터), 비우면 0',
      zh: '高度（米），留空为 0',
      en: 'Height in metres; empty means 0',
    },
    example: '0',
  },
  {
    key: 'heading',
    isRequired: false,
    kind: { type: 'number', minimum: -180, maximum: 180 },
    label: { ko: '방향', zh: '航向', en: 'Heading' },
    description: {
      ko: '방향 각도 (-180 ~ 180)',
      zh: '航向角（-180 至 180）',
      en: 'Heading in degrees (-180 to 180)',
    },
    example: '0',
  },
  {
    key: 'pitch',
    isRequired: false,
    kind: { type: 'number', minimum: -90, maximum: 90 },
    label: { ko: '피치', zh: '俯仰', en: 'Pitch' },
    description: {
      ko: '피치 각도 (-90 ~ 90)',
      zh: '俯仰角（-90 至 90）',
      en: 'Pitch in degrees (-90 to 90)',
    },
    example: '0',
  },
  {
    key: 'roll',
    isRequired: false,
    kind: { type: 'number', minimum: -180, maximum: 180 },
    label: { ko: '롤', zh: '翻滚', en: 'Roll' },
    description: {
      ko: '롤 각도 (-180 ~ 180)',
      zh: '翻滚角（-180 至 180）',
      en: 'Roll in degrees (-180 to 180)',
    },
    example: '0',
  },
  {
    key: 'floor_id',
    isRequired: false,
    kind: { type: 'text', maxLength: 64 },
    label: { ko: '층 ID', zh: '楼层 ID', en: 'Floor id' },
    description: {
      ko: '건물 프로젝트에서 POI가 놓일 층의 ID (선택)',
      zh: '建筑项目中 POI 所在楼层的 ID（可选）',
      en: 'Building projects: the id of the floor the POI is placed on (optional)',
    },
    example: '',
  },
  {
    key: 'distance_min',
    isRequired: false,
    kind: { type: 'number', minimum: 0 },
    label: { ko: '최소 표시 거리', zh: '最小可视距离', en: 'Minimum view distance' },
    description: {
      ko: '이 거리(미터)보다 가까우면 숨김 (선택)',
      zh: '近于此距离（米）时隐藏（可选）',
      en: 'Hidden when the camera is closer than this, in metres (optional)',
    },
    example: '0',
  },
  {
    key: 'distance_max',
    isRequired: false,
    kind: { type: 'number', minimum: 0 },
    label: { ko: '최대 표시 거리', zh: '最大可视距离', en: 'Maximum view distance' },
    description: {
      ko: '이 거리(미터)보다 멀면 숨김 (선택)',
      zh: '远于此距离（米）时隐藏（可选）',
      en: 'Hidden when the camera is farther than this, in metres (optional)',
    },
    example: '5000',
  },
]

/** A template's static attribute (SPEC §3) as the file needs it. */
export interface StaticAttributeColumnSource {
  property_column: string
  column_des: string
  column_example: string
}

/** The attribute's column: optional text, labelled by its display name in every language. */
export function attributeColumn(attribute: StaticAttributeColumnSource): PoiBatchColumn {
  const hint = {
    ko: `정적 속성 "${attribute.column_des}" (선택)`,
    zh: `静态属性"${attribute.column_des}"（可选）`,
    en: `Static attribute "${attribute.column_des}" (optional)`,
  }
  return {
    key: attribute.property_column,
    isRequired: false,
    kind: { type: 'text', maxLength: 500 },
    label: { ko: attribute.column_des, zh: attribute.column_des, en: attribute.column_des },
    description: hint,
    example: attribute.column_example,
  }
}

/** Headings of the explanation sheet, per language. */
export const explanationTexts: Record<
  MessageLanguage,
  {
    sheetName: string
    column: string
    name: string
    required: string
    description: string
    example: string
    yes: string
    no: string
    intro: (templateName: string) => string
  }
> = {
  ko: {
    sheetName: '설명',
    column: '열',
    name: '이름',
    required: '필수',
    description: '설명',
    example: '예시',
    yes: '예',
    no: '아니요',
    intro: (name) =>
      `템플릿 "${name}"의 POI 일괄 등록 파일입니다. 첫 번째 시트의 2행부터 POI를 한 행에 하나씩 입력하세요. 1행(열 키)은 바꾸지 마세요. 수식은 사용할 수 없습니다.`,
  },
  zh: {
    sheetName: '说明',
    column: '列',
    name: '名称',
    required: '必填',
    description: '说明',
    example: '示例',
    yes: '是',
    no: '否',
    intro: (name) =>
      `模板"${name}"的批量 POI 文件。请从第一个工作表的第 2 行起每行填写一个 POI，不要修改第 1 行（列键）。不接受公式。`,
  },
  en: {
    sheetName: 'Explanation',
    column: 'Column',
    name: 'Name',
    required: 'Required',
    description: 'Description',
    example: 'Example',
    yes: 'yes',
    no: 'no',
    intro: (name) =>
      `Batch-POI file of the template "${name}". Fill one POI per row from row 2 of the first sheet; do not change row 1 (the column keys). Formulas are not accepted.`,
  },
}
