/**
 * The offline viewer's few words in ko, zh and en. The viewer runs from a disk without the
 * console's lingui catalogues, so its texts live here; the language is the browser's.
 */
export interface ViewerText {
  /** Over a development trial's package. */
  trialWatermark: string
  /** Over a paid package whose watermark removal was not paid: no "trial" on what was paid for. */
  watermark: string
  loading(index: number, count: number): string
  shown(models: number, pois: number): string
  network(states: number): string
  loadingCity: string
  /** `models`: the city's library models, named only when it has some. */
  cityShown(tilesets: number, models: number, pois: number): string
  failed(reason: string): string
  /** In the POI list when the project has none. */
  noPois: string
}

/** "1 POI", "2 POIs": English counts take a plural form (ko and zh have one form). */
function count(value: number, one: string, other: string): string {
  return `${value} ${value === 1 ? one : other}`
}

const texts: Record<'ko' | 'zh' | 'en', ViewerText> = {
  ko: {
    trialWatermark: 'Twinscape 체험판',
    watermark: 'Twinscape로 제작',
    loading: (index, count) => `모델 불러오는 중 ${index}/${count}`,
    shown: (models, pois) => `모델 ${models}개, POI ${pois}개`,
    network: (states) => `실내 경로망: 노드 ${states}개`,
    loadingCity: '타일셋과 지도 불러오는 중',
    cityShown: (tilesets, models, pois) =>
      `타일셋 ${tilesets}개, ${models > 0 ? `모델 ${models}개, ` : ''}POI ${pois}개`,
    failed: (reason) => `패키지를 열 수 없습니다: ${reason}`,
    noPois: '이 프로젝트에는 POI가 없습니다.',
  },
  zh: {
    trialWatermark: 'Twinscape 试用版',
    watermark: '由 Twinscape 制作',
    loading: (index, count) => `正在加载模型 ${index}/${count}`,
    shown: (models, pois) => `${models} 个模型，${pois} 个 POI`,
    network: (states) => `室内路网：${states} 个节点`,
    loadingCity: '正在加载瓦片集和底图',
    cityShown: (tilesets, models, pois) =>
      `${tilesets} 个瓦片集，${models > 0 ? `${models} 个模型，` : ''}${pois} 个 POI`,
    failed: (reason) => `无法打开离线包：${reason}`,
    noPois: '此项目没有 POI。',
  },
  en: {
    trialWatermark: 'Twinscape trial',
    watermark: 'Made with Twinscape',
    loading: (index, count) => `Loading model ${index}/${count}`,
    shown: (models, pois) => `${count(models, 'model', 'models')}, ${count(pois, 'POI', 'POIs')}`,
    network: (states) => `Indoor network: ${count(states, 'state', 'states')}`,
    loadingCity: 'Loading the tilesets and the map',
    cityShown: (tilesets, models, pois) =>
      `${count(tilesets, 'tileset', 'tilesets')}, ${models > 0 ? `${count(models, 'model', 'models')}, ` : ''}${count(pois, 'POI', 'POIs')}`,
    failed: (reason) => `The package cannot be opened: ${reason}`,
    noPois: 'This project has no POIs.',
  },
}

/** The texts for a browser language tag such as `ko-KR`; English when it is none of the three. */
export function viewerText(language: string): ViewerText {
  const code = language.slice(0, 2).toLowerCase()
  return code === 'ko' || code === 'zh' ? texts[code] : texts.en
}
