/**
 * Where a 3D template model's files are in the store's `template-models` area, for the service
 * that writes them and the offline package that reads them.
 */

/** Files of one template model inside its folder. */
export const templateModelFileNames = {
  sbm: 'model.sbm',
  png: 'preview.png',
  xml: 'model.xml',
} as const

/** The folder of a model's files (0036): the one its row names, else its id. */
export function templateModelFolder(row: { id: string; files_folder: string | null }): string {
  return row.files_folder ?? row.id
}

/** The name in the template-models area of one of a model's files. */
export function templateModelFileName(
  row: { id: string; files_folder: string | null },
  kind: keyof typeof templateModelFileNames,
): string {
  return `${templateModelFolder(row)}/${templateModelFileNames[kind]}`
}
