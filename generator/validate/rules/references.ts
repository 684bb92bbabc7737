import { didYouMean } from '../model-error.js';
import { attributesOf, isPlainObject, pointer, where, type ValidationRule } from '../context.js';

/**
 * Relation targets and components exist; two-way relations point at each other; components
 * do not contain themselves.
 */
export const referencesRule: ValidationRule = ({ models, report }) => {
  const contentTypes = new Map(models.contentTypes.map((ct) => [ct.uid, ct]));
  const componentUids = models.components.map((c) => c.uid);
  const owners = [
    ...models.contentTypes.map((model) => ({ model, kind: 'content type' as const })),
    ...models.components.map((model) => ({ model, kind: 'component' as const })),
  ];

  for (const { model, kind } of owners) {
    for (const [name, attribute] of Object.entries(attributesOf(model.json))) {
      if (!isPlainObject(attribute)) continue;
      const owner = where(model, kind, name);
      if (attribute.type === 'relation' && typeof attribute.target === 'string') {
        const target = contentTypes.get(attribute.target);
        if (!target) {
          report(model, pointer('attributes', name, 'target'), `${owner}: relation target "${attribute.target}" does not exist.${didYouMean(attribute.target, [...contentTypes.keys()])}`);
          continue;
        }
        for (const side of ['inversedBy', 'mappedBy'] as const) {
          const other = attribute[side];
          if (other === undefined) continue;
          const back = attributesOf(target.json)[other as string];
          const expected = side === 'inversedBy' ? 'mappedBy' : 'inversedBy';
          if (!isPlainObject(back) || back.type !== 'relation') {
            report(model, pointer('attributes', name, side), `${owner}: ${side} "${String(other)}" is not a relation attribute of "${target.uid}"`);
          } else if (back.target !== model.uid || back[expected] !== name) {
            report(model, pointer('attributes', name, side), `${owner}: "${target.uid}".${String(other)} must have target "${model.uid}" and ${expected} "${name}"`);
          } else if (!relationsMatch(attribute.relation, back.relation)) {
            report(model, pointer('attributes', name, 'relation'), `${owner}: ${String(attribute.relation)} does not match the other side's ${String(back.relation)}`);
          }
        }
      }
      const refs: [string, string[]][] = [];
      if (attribute.type === 'component' && typeof attribute.component === 'string') refs.push([attribute.component, ['component']]);
      if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components)) {
        attribute.components.forEach((c, i) => typeof c === 'string' && refs.push([c, ['components', String(i)]]));
      }
      for (const [uid, at] of refs) {
        if (!componentUids.includes(uid)) {
          report(model, pointer('attributes', name, ...at), `${owner}: unknown component "${uid}".${didYouMean(uid, componentUids)}`);
        }
      }
    }
  }

  // A component reachable from itself would nest forever.
  const children = new Map(
    models.components.map((c) => [
      c.uid,
      Object.values(attributesOf(c.json))
        .filter((a) => isPlainObject(a) && a.type === 'component' && typeof a.component === 'string')
        .map((a) => (a as { component: string }).component),
    ]),
  );
  for (const component of models.components) {
    const seen = new Set<string>();
    const stack = [...(children.get(component.uid) ?? [])];
    while (stack.length) {
      const uid = stack.pop()!;
      if (uid === component.uid) {
        report(component, pointer('attributes'), `${where(component, 'component')}: contains itself through nested components`);
        break;
      }
      if (seen.has(uid)) continue;
      seen.add(uid);
      stack.push(...(children.get(uid) ?? []));
    }
  }
};

const inverseOf: Record<string, string> = {
  oneToOne: 'oneToOne',
  oneToMany: 'manyToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};

function relationsMatch(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && inverseOf[a] === b;
}
