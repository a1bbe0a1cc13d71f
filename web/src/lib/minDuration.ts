/** Resolves/rejects like `work`, but not before `ms` have passed (loading button minimum, spec 01 §9). */
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
