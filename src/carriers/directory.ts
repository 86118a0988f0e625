import type { ProviderInfo } from '../api/mappers/consignment.mapper';

/**
 * What the API needs to know of carriers before the carrier registry answers for them: which provider ids
 * exist and how to show them. Seeded with the two sandbox carriers (DESIGN.md: providers 1 and 2).
 */
export function createCarrierDirectory(publicBaseUrl: string) {
  const providers = new Map<number, ProviderInfo>([
    [1, { id: 1, name: 'Sandbox Express', logo: `${publicBaseUrl}/api/v1/providers/1/logo.svg` }],
    [2, { id: 2, name: 'Sandbox Economy', logo: `${publicBaseUrl}/api/v1/providers/2/logo.svg` }],
  ]);
  return {
    exists: (id: number) => providers.has(id),
    info: (id: number) => providers.get(id),
  };
}
