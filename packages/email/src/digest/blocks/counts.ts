import { formatCount } from '@digest/contracts';

/** '1 comment', '1.5K comments': docs/product.md §9 counts with the word in the number's form. */
export function countOf(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}
