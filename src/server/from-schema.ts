/**
 * Argument types inferred from a JSON Schema literal (`as const`, or a `const` type
 * parameter): the common keywords only — `type`, `properties`, `required`, `items`,
 * `enum`, `const`, `anyOf`/`oneOf`, `additionalProperties`. Anything else (and any
 * schema typed as a plain object) infers `unknown` for that part, never a wrong type.
 */
export type FromSchema<S> = S extends boolean
  ? unknown
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly anyOf: readonly unknown[] }
        ? FromEach<S['anyOf']>
        : S extends { readonly oneOf: readonly unknown[] }
          ? FromEach<S['oneOf']>
          : S extends { readonly type: readonly (infer T)[] }
            ? T extends string
              ? FromType<T, S>
              : unknown
            : S extends { readonly type: infer T extends string }
              ? FromType<T, S>
              : unknown;

type FromEach<L> = L extends readonly [infer Head, ...infer Tail]
  ? FromSchema<Head> | FromEach<Tail>
  : L extends readonly (infer Item)[]
    ? FromSchema<Item>
    : never;

type FromType<T extends string, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? FromObject<S>
            : unknown;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;

type Extra<S> = S extends { readonly additionalProperties: false }
  ? unknown
  : S extends { readonly additionalProperties: infer A extends object }
    ? { [key: string]: FromSchema<A> }
    : unknown;

type FromObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
      {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromSchema<P[K]>;
      } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromSchema<P[K]>;
      } & Extra<S>
    >
  : Record<string, unknown>;
