/** An OpenAI-format function tool; every provider package accepts this shape in `bindTools`. */
export interface FunctionToolSpec {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> };
}
