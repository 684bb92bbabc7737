/**
 * A `blocks` attribute's value (Strapi's rich-text blocks, since 4.15): a list of block
 * nodes, checked as Strapi v4's entity validator checks it (its blocks validator, a yup
 * schema): paragraph, heading (level 1–6), quote, code, list (ordered/unordered, items or
 * nested lists) and image blocks, holding text and link nodes. Unknown keys are kept.
 *
 * Messages are yup's, with yup's paths (`body[0].children`); each failure is reported, as
 * Strapi validates with abortEarly: false.
 */
import { messages, notTypeMessage } from './yup-messages.js';

/**
 * Every failure of a value that is already known to be an array. Deeper than `maxDepth`
 * containers (nested lists, say) is one failure, found before the walk, which recurses.
 */
export function blocksIssues(name: string, blocks: readonly unknown[], maxDepth: number): string[] {
  if (depthOf(blocks) > maxDepth) return [messages.jsonDepth(name, maxDepth)];
  const out: string[] = [];
  blocks.forEach((block, i) => blockNode(block)(block, `${name}[${i}]`, out));
  return out;
}

type Check = (value: unknown, path: string, out: string[]) => void;

/** A node: an object of field checks; a non-object is a type error and nothing else. */
function object(fields: Readonly<Record<string, Check>>): Check {
  return (value, path, out) => {
    if (!isPlainObject(value)) {
      out.push(notTypeMessage(path, 'object', value, value));
      return;
    }
    for (const [key, check] of Object.entries(fields)) check(value[key], `${path}.${key}`, out);
  };
}

/** Containers nested in `value`, walked with an explicit stack. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    max = Math.max(max, depth + 1);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

const required = (path: string) => `${path} is a required field`;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `yup.string()` (numbers and booleans cast), optionally `.equals(values)`, `.required()`, `.nullable()`. */
function string(options: { oneOf?: readonly string[]; required?: boolean; nullable?: boolean; test?: [(v: unknown) => boolean, string] } = {}): Check {
  return (raw, path, out) => {
    if (raw === undefined) {
      if (options.test && !options.test[0](raw)) out.push(options.test[1]);
      if (options.required) out.push(required(path));
      return;
    }
    if (raw === null && options.nullable) return;
    const value = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
    if (typeof value !== 'string') {
      out.push(notTypeMessage(path, 'string', value, raw));
      return;
    }
    if (options.oneOf && !options.oneOf.includes(value)) out.push(`${path} must be one of the following values: ${options.oneOf.join(', ')}`);
    if (options.test && !options.test[0](value)) out.push(options.test[1]);
  };
}

/** `yup.number()` (number strings cast), optionally `.oneOf(values)`, `.required()`. */
function number(options: { oneOf?: readonly number[]; required?: boolean } = {}): Check {
  return (raw, path, out) => {
    if (raw === undefined) {
      if (options.required) out.push(required(path));
      return;
    }
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.replace(/\s/g, '')) : raw;
    if (typeof value !== 'number' || Number.isNaN(value)) {
      out.push(notTypeMessage(path, 'number', typeof value === 'number' ? value : raw, raw));
      return;
    }
    if (options.oneOf && !options.oneOf.includes(value)) out.push(`${path} must be one of the following values: ${options.oneOf.join(', ')}`);
  };
}

/** `yup.boolean()` ('true'/'false'/1/0 cast). */
const boolean: Check = (raw, path, out) => {
  if (raw === undefined || typeof raw === 'boolean') return;
  if ((typeof raw === 'string' || typeof raw === 'number') && /^(true|false|1|0)$/i.test(String(raw))) return;
  out.push(notTypeMessage(path, 'boolean', raw, raw));
};

/** `yup.mixed().nullable()`: anything. */
const anything: Check = () => {};

/** `yup.object()` (any object, or absent), optionally `.required()`. */
function anyObject(options: { required?: boolean } = {}): Check {
  return (raw, path, out) => {
    if (raw === undefined) {
      if (options.required) out.push(required(path));
      return;
    }
    if (!isPlainObject(raw)) out.push(notTypeMessage(path, 'object', raw, raw));
  };
}

/** `yup.array().of(item)`, optionally `.min(1, message)` and `.required()`. */
function array(item: (value: unknown) => Check, options: { min?: string; required?: boolean } = {}): Check {
  return (raw, path, out) => {
    if (raw === undefined) {
      if (options.required) out.push(required(path));
      return;
    }
    if (!Array.isArray(raw)) {
      out.push(notTypeMessage(path, 'array', raw, raw));
      return;
    }
    if (options.min !== undefined && raw.length < 1) out.push(options.min);
    raw.forEach((element, i) => item(element)(element, `${path}[${i}]`, out));
  };
}

/** `yup.lazy` on `value.type`: the check of that node type, or a failing one. */
function byType(cases: Readonly<Record<string, () => Check>>, message: string): (value: unknown) => Check {
  return (value) => {
    const type = isPlainObject(value) ? value.type : undefined;
    const found = typeof type === 'string' && Object.hasOwn(cases, type) ? cases[type] : undefined;
    return found ? found() : (_value, _path, out) => void out.push(message);
  };
}

const validLink = (url: string): boolean => {
  try {
    new URL(url.startsWith('/') ? `https://strapi.io${url}` : url);
    return true;
  } catch {
    return false;
  }
};

const textNode: Check = object({
  type: string({ oneOf: ['text'], required: true }),
  text: string({ test: [(v) => typeof v === 'string', 'Text must be defined with at least an empty string'] }),
  bold: boolean,
  italic: boolean,
  underline: boolean,
  strikethrough: boolean,
  code: boolean,
});

const linkNode: Check = object({
  type: string({ oneOf: ['link'], required: true }),
  url: string({ test: [(v) => validLink(typeof v === 'string' ? v : ''), 'Please specify a valid link.'] }),
  children: array(() => textNode, { required: true }),
});

const inlineNode = byType({ text: () => textNode, link: () => linkNode }, 'Inline node must be Text or Link');

const withInlineChildren = (type: string, min: string, extra: Readonly<Record<string, Check>> = {}): Check =>
  object({ type: string({ oneOf: [type], required: true }), ...extra, children: array(inlineNode, { min, required: true }) });

const listItemNode: Check = object({ type: string({ oneOf: ['list-item'], required: true }), children: array(inlineNode, { required: true }) });

const listChild = byType({ list: () => listNode, 'list-item': () => listItemNode }, 'Inline node must be list-item or list');

const listNode: Check = object({
  type: string({ oneOf: ['list'], required: true }),
  format: string({ oneOf: ['ordered', 'unordered'], required: true }),
  children: array(listChild, { min: 'List node children must have at least one ListItem or ListNode', required: true }),
});

const imageNode: Check = object({
  type: string({ oneOf: ['image'], required: true }),
  image: object({
    name: string({ required: true }),
    alternativeText: string({ nullable: true }),
    url: string({ required: true }),
    caption: string({ nullable: true }),
    width: number({ required: true }),
    height: number({ required: true }),
    formats: anyObject({ required: true }),
    hash: string({ required: true }),
    ext: string({ required: true }),
    mime: string({ required: true }),
    size: number({ required: true }),
    previewUrl: string({ nullable: true }),
    provider: string({ required: true }),
    provider_metadata: anything,
    createdAt: string({ required: true }),
    updatedAt: string({ required: true }),
  }),
  children: array(inlineNode, { required: true }),
});

const blockNode = byType(
  {
    paragraph: () => withInlineChildren('paragraph', 'Paragraph node children must have at least one Text or Link node'),
    heading: () => withInlineChildren('heading', 'Heading node children must have at least one Text or Link node', { level: number({ oneOf: [1, 2, 3, 4, 5, 6], required: true }) }),
    quote: () => withInlineChildren('quote', 'Quote node children must have at least one Text or Link node'),
    list: () => listNode,
    image: () => imageNode,
    code: () =>
      object({
        type: string({ oneOf: ['code'], required: true }),
        syntax: string({ nullable: true }),
        // Strapi's own text, copied from the quote node.
        children: array(() => textNode, { min: 'Quote node children must have at least one Text or Link node', required: true }),
      }),
  },
  'Block node is of invalid type',
);
