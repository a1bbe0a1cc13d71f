/** Resolves/rejects like `work`, but not before `ms` have passed (loading button minimum, docs/reference/console.md). */
export async function withMinDuration<T>(work: Promise<T>, ms: number): Promise<T> {
  const wait = new Promise<void>((resolve) => setTimeout(resolve, ms));
  try {
    const result = await work;
    await wait;
    return result;
  } catch (error) {
    await wait;
    throw error;
  }
}
