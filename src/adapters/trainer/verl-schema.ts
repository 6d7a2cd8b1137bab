// The explicit parquet schema of the veRL export (never inferred from the data, so an export of zero rows
// or of rows without tool calls has the same columns and types as any other). Lists use the standard
// three-level LIST layout (`<name>` / `list` / `element`) that pyarrow and pandas read as Python lists.
import type { ParquetWriter } from 'hyparquet-writer';

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

const text = (name: string, repetition: 'REQUIRED' | 'OPTIONAL'): SchemaElement => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: repetition,
});

function list(name: string, repetition: 'REQUIRED' | 'OPTIONAL', element: SchemaElement[]): SchemaElement[] {
  const [head, ...fields] = element;
  if (!head) throw new Error('a list needs an element');
  return [
    { name, repetition_type: repetition, converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { ...head, name: 'element' },
    ...fields,
  ];
}

const toolCall: SchemaElement[] = [
  { name: 'element', repetition_type: 'REQUIRED', num_children: 3 },
  text('id', 'REQUIRED'),
  text('type', 'REQUIRED'),
  { name: 'function', repetition_type: 'REQUIRED', num_children: 2 },
  text('name', 'REQUIRED'),
  text('arguments', 'REQUIRED'),
];

const message: SchemaElement[] = [
  { name: 'element', repetition_type: 'REQUIRED', num_children: 5 },
  text('role', 'REQUIRED'),
  text('content', 'OPTIONAL'),
  text('name', 'OPTIONAL'),
  ...list('tool_calls', 'OPTIONAL', toolCall),
  text('tool_call_id', 'OPTIONAL'),
];

/**
 * The flattened schema (depth-first, root first) of the veRL parquet file.
 *
 * @example
 * verlParquetSchema({ enableThinking: false })[0] // { name: 'root', num_children: 3 }
 */
export function verlParquetSchema(options: { enableThinking: boolean }): SchemaElement[] {
  const columns: SchemaElement[][] = [
    [text('id', 'REQUIRED')],
    list('messages', 'REQUIRED', message),
    [text('tools', 'REQUIRED')],
    ...(options.enableThinking
      ? [[{ name: 'enable_thinking', type: 'BOOLEAN', repetition_type: 'REQUIRED' }]]
      : []),
  ] as SchemaElement[][];
  return [{ name: 'root', num_children: columns.length }, ...columns.flat()];
}

/**
 * The top-level column names, in schema order.
 *
 * @example
 * verlColumns({ enableThinking: true }) // ['id', 'messages', 'tools', 'enable_thinking']
 */
export function verlColumns(options: { enableThinking: boolean }): string[] {
  return ['id', 'messages', 'tools', ...(options.enableThinking ? ['enable_thinking'] : [])];
}
