/** `T`'s fields `K`, each present: null where `T` may lack it. */
export type OrNull<T, K extends keyof T> = { [P in K]-?: Exclude<T[P], undefined> | null };

/** The `keys` of `value`, in that order, each as it is or null where it is absent: JSON answers and SQL rows have no undefined. */
export function orNull<T extends object, K extends keyof T>(value: T, keys: readonly K[]): OrNull<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key] ?? null])) as OrNull<T, K>;
}
