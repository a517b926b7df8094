import { SearchAttributeType } from '@temporalio/common';

/** A custom search attribute to register at dev server start (same shape as the SDK's `SearchAttributeKey`). */
export interface SearchAttributeDefinition {
  readonly name: string;
  readonly type: SearchAttributeType;
}

/** The CLI's spelling of each SDK search attribute type (`temporal server start-dev --help`). */
const CLI_TYPE_NAMES: Readonly<Record<SearchAttributeType, string>> = {
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
};

// The CLI rejects names that are not identifiers; failing here gives a clearer message than its stderr.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `--search-attribute Name=Type` argument pairs for `temporal server start-dev`.
 *
 * @throws Error on a name that is not an identifier or an unknown type.
 */
export function searchAttributeFlags(attributes: readonly SearchAttributeDefinition[]): string[] {
  return attributes.flatMap(({ name, type }) => {
    if (!IDENTIFIER.test(name)) throw new Error(`Search attribute name "${name}" is not an identifier`);
    // Checked at run time too: definitions may come from untyped JavaScript or configuration.
    if (!Object.hasOwn(CLI_TYPE_NAMES, type)) throw new Error(`Search attribute "${name}" has unknown type "${type}"`);
    return ['--search-attribute', `${name}=${CLI_TYPE_NAMES[type]}`];
  });
}
