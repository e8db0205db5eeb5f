/**
 * Text folding for offline place search: the same key for the ways a user may type a name
 * ("Ürümqi" / "urumqi", "廣州" / "广州", full-width letters).
 */

// Traditional → simplified for the characters that occur in the shipped place names and in
// common city names, so a search typed in either script finds the same place. Not a general
// converter: one character each, no phrase rules.
const traditionalToSimplified = (
  '爾尔 陽阳 關关 銀银 蘭兰 寧宁 貴贵 廣广 瀋沈 臺台 門门 國国 蘇苏 ' +
  '華华 東东 灣湾 區区 長长 館馆 義义 車车 魯鲁 羅罗 維维 達达 濟济 ' +
  '麗丽 萬万 鳳凤 開开 雲云 歷历 會会 舊旧 黃黄 鎮镇 劍剑 寶宝 邁迈 ' +
  '盧卢 圖图 靈灵 溫温 頓顿 貝贝 納纳 樂乐 將将 軍军 學学 極极 際际 ' +
  '內内 倫伦 賓宾 凱凯 賴赖 喬乔 聖圣 馬马 諾诺 約约 懷怀 緬缅 費费 ' +
  '韋韦 賽赛 滿满 葉叶 參参 鐵铁 營营 貢贡 設设 則则 堅坚 農农 蓋盖 ' +
  '愛爱 騷骚 島岛 鄉乡 橋桥 龍龙 陸陆 漢汉 嶺岭 鄭郑 齊齐 與与 興兴 ' +
  '綏绥 陝陕 遼辽 雞鸡 慶庆 連连 瑪玛 盤盘 潤润 濱滨 嶼屿 澤泽 鹽盐 ' +
  '蓮莲 錦锦 雙双 廈厦 網网 '
)
  .trim()
  .split(' ')

const foldMap = new Map<string, string>()
for (const pair of traditionalToSimplified) {
  const [from, to] = [...pair]
  if (from && to) foldMap.set(from, to)
}

/** Replaces the traditional Chinese characters we know with their simplified forms. */
export function foldChineseToSimplified(text: string): string {
  let folded = ''
  for (const character of text) folded += foldMap.get(character) ?? character
  return folded
}

const hanOnly = /^[\u3400-\u9fff]*$/

/**
 * The search key of a name or a query: NFKC (full-width → ASCII), lower case, Latin
 * diacritics removed, Chinese folded to simplified, punctuation and spaces collapsed.
 */
export function searchKey(text: string): string {
  // Han-only names (most of the divisions table) need no case, width or accent folding
  if (hanOnly.test(text)) return foldChineseToSimplified(text)
  const decomposed = text.normalize('NFKC').toLowerCase().normalize('NFD')
  // only Latin combining marks go; NFC then recomposes Hangul syllables that NFD split into jamo
  const withoutMarks = decomposed.replace(/[\u0300-\u036f]/g, '').normalize('NFC')
  return foldChineseToSimplified(withoutMarks)
    .replace(/[\s.,'’`\-‐–—()]+/g, ' ')
    .trim()
}
