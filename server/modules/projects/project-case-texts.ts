import type { MessageId } from '../../../contract/messages'

/** A seeded case's texts as stored (English) and their catalogue ids (ko/zh/en in the client). */
export interface ProjectCaseTexts {
  name: string
  description: string
  detailedaddress: string
  textKeys: { name: MessageId; description: MessageId; detailedaddress: MessageId }
}

/** The texts of the seeded project cases (project-cases.ts). */
export const projectCaseTexts = {
  dragon: {
    name: 'Dragon tileset (3D Tiles)',
    description: 'A georeferenced 3D Tiles 1.0 tileset with two levels of detail.',
    detailedaddress: 'Exton, Pennsylvania, United States',
    textKeys: {
      name: 'case.dragon.name',
      description: 'case.dragon.description',
      detailedaddress: 'case.dragon.address',
    },
  },
  house: {
    name: 'House (SBM building)',
    description: 'A one-floor house model converted to SBM, with its building structure.',
    detailedaddress: 'Seoul, South Korea',
    textKeys: {
      name: 'case.house.name',
      description: 'case.house.description',
      detailedaddress: 'case.house.address',
    },
  },
} satisfies Record<string, ProjectCaseTexts>

/**
 * The catalogue ids of a project's texts that still read as a seeded case's (English): each
 * field's id is sent only while the project keeps that field's seeded text, so a renamed case
 * shows its name as typed and still reads its untouched address in the user's language — and so
 * does a copy of a case, whose description and address are the case's until its owner edits them.
 */
export function projectCaseTextKeys(record: {
  name: string
  description: string
  detailedaddress: string
}): { name_key?: MessageId; description_key?: MessageId; detailedaddress_key?: MessageId } {
  const keyOf = (field: 'name' | 'description' | 'detailedaddress') =>
    Object.values(projectCaseTexts).find((texts) => texts[field] === record[field])?.textKeys[field]
  const [name, description, address] = [
    keyOf('name'),
    keyOf('description'),
    keyOf('detailedaddress'),
  ]
  return {
    ...(name ? { name_key: name } : {}),
    ...(description ? { description_key: description } : {}),
    ...(address ? { detailedaddress_key: address } : {}),
  }
}
