/**
 * Type helpers that hold a recorded fixture to a provider's published SDK types, so a fixture cannot drift
 * from the real shape: every field it has must be one the SDK declares, with a type the SDK allows. A
 * fixture may leave fields out (recordings are trimmed), so only what is there is checked.
 */

/** The SDK type with every field optional and its literal types widened, as a JSON import's types are. */
export type Recordable<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends null
        ? null
        : T extends readonly (infer Item)[]
          ? Recordable<Item>[]
          : T extends object
            ? { [K in keyof T]?: Recordable<T[K]> }
            : T;

type ObjectPart<T> = Extract<NonNullable<T>, object>;

/**
 * The names of the fields of `Recorded` (deeply) that `Sdk` does not declare: `never` when there are none.
 * A JSON import is not an object literal, so TypeScript's own excess-property check does not see them.
 */
export type UnknownFields<Recorded, Sdk> = Recorded extends readonly (infer Item)[]
  ? ObjectPart<Sdk> extends readonly (infer SdkItem)[]
    ? UnknownFields<Item, SdkItem>
    : never
  : Recorded extends object
    ? string extends keyof ObjectPart<Sdk>
      ? never
      : {
          [K in keyof Recorded]-?: K extends keyof ObjectPart<Sdk>
            ? UnknownFields<Recorded[K], ObjectPart<Sdk>[K]>
            : K;
        }[keyof Recorded]
    : never;
