import type { AddOrderBody, ShoppingLine } from '../../../contract/orders'
import { priceContactUs, priceFree } from '../../../contract/orders'

/**
 * The order dialog's choice (SPEC §4 "Order dialog"), as pure functions the dialog renders:
 * service support (type 5) is a radio group with the first option chosen, other lines are
 * toggles, the development trial (type 6) locks every other choice and leaves only the direct
 * download, and the total is recomputed from the choice on every change.
 */
export interface OrderSelection {
  /** Toggled lines (types 1-4). */
  checkedIds: ReadonlySet<string>
  /** The chosen service support option. */
  supportId: string | null
  /** Years of the chosen support option. */
  supportYears: number
  /** Trial mode: the trial line is chosen and everything else is locked. */
  isTrial: boolean
}

const supportType = '5'
const trialType = '6'

/** The choice the dialog opens with: the lines the server marks `is_check`. */
export function initialSelection(lines: readonly ShoppingLine[]): OrderSelection {
  const support = lines.find((line) => line.type === supportType && line.is_check)
  return {
    checkedIds: new Set(
      lines
        .filter((line) => line.is_check && line.type !== supportType && line.type !== trialType)
        .map((line) => line.id),
    ),
    supportId: support?.id ?? null,
    supportYears: 1,
    isTrial: false,
  }
}

/** Whether a line cannot be changed now: not orderable, priced on request, or trial mode. */
export function isLineLocked(line: ShoppingLine, selection: OrderSelection): boolean {
  if (line.type === trialType) return false
  if (selection.isTrial) return true
  return !line.is_orderable || line.price === priceContactUs
}

/** Toggles a line of types 1-4 (a locked line stays as it is). */
export function toggleLine(selection: OrderSelection, line: ShoppingLine): OrderSelection {
  if (line.type === supportType || line.type === trialType || isLineLocked(line, selection)) {
    return selection
  }
  const checkedIds = new Set(selection.checkedIds)
  if (checkedIds.has(line.id)) checkedIds.delete(line.id)
  else checkedIds.add(line.id)
  return { ...selection, checkedIds }
}

/** Chooses a service support option (the radio group). */
export function chooseSupport(selection: OrderSelection, line: ShoppingLine): OrderSelection {
  if (line.type !== supportType || isLineLocked(line, selection)) return selection
  return { ...selection, supportId: line.id }
}

/** Sets the years of service support (whole years from 1 to 10). */
export function setSupportYears(selection: OrderSelection, years: number): OrderSelection {
  if (!Number.isInteger(years) || years < 1 || years > 10) return selection
  return { ...selection, supportYears: years }
}

/** Enters or leaves trial mode; the other choices are kept for when it is left. */
export function toggleTrial(selection: OrderSelection): OrderSelection {
  return { ...selection, isTrial: !selection.isTrial }
}

/** Points a line costs in the current choice (0 when not chosen, free or priced on request). */
export function lineAmount(line: ShoppingLine, selection: OrderSelection): number {
  if (selection.isTrial || line.price === priceFree || line.price === priceContactUs) return 0
  if (line.type === supportType) {
    return line.id === selection.supportId ? line.price * selection.supportYears : 0
  }
  if (!selection.checkedIds.has(line.id)) return 0
  return line.amount ?? 0
}

/** The total of the current choice, in points. */
export function totalOf(lines: readonly ShoppingLine[], selection: OrderSelection): number {
  return lines.reduce((sum, line) => sum + lineAmount(line, selection), 0)
}

/** The `addOrder` body of the current choice (never called in trial mode). */
export function orderBodyOf(
  projectId: string,
  lines: readonly ShoppingLine[],
  selection: OrderSelection,
): AddOrderBody {
  const ids = lines
    .filter(
      (line) =>
        (line.type !== supportType &&
          line.type !== trialType &&
          selection.checkedIds.has(line.id)) ||
        line.id === selection.supportId,
    )
    .map((line) => line.id)
  return {
    project_id: projectId,
    ids,
    ...(selection.supportId !== null && selection.supportYears !== 1
      ? { counts: { [selection.supportId]: selection.supportYears } }
      : {}),
  }
}
