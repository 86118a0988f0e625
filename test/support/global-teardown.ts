export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as { __temporalDevServer?: { stop(): Promise<void> } }).__temporalDevServer;
  await server?.stop();
}
