import type { Declarations, Observation } from "../collect";
import type { DirectoryService } from "../sources/directorySource";

/** A small observation for builder tests: services and declarations given, nothing measured. */
export function testObservation(
  services: DirectoryService[],
  declarations: Partial<Declarations>[] = [],
): Observation {
  const window = (days: number) => ({
    from: new Date(Date.parse("2026-11-21T00:00:00Z") - days * 86_400_000).toISOString(),
    to: "2026-11-21T00:00:00.000Z",
    days,
  });
  const ref = {
    name: "test directory",
    url: "https://directory.example",
    role: "list",
    license: "CC BY 4.0",
    attribution: "test attribution",
  };
  return {
    asOf: "2026-11-21",
    generatedAt: "2026-11-21T00:00:00.000Z",
    window30: window(30),
    window90: window(90),
    provenance: { source: "test source", note: "test note" },
    directoryRef: ref,
    discoveryRef: ref,
    services,
    discovery: new Map(),
    declarations: new Map(
      services.map((service) => {
        const given = declarations.find((entry) => entry.slug === service.slug) ?? {};
        return [
          service.slug,
          {
            slug: service.slug,
            dirNetworks: [],
            liveNetworks: [],
            evm: [],
            solana: [],
            invalid: [],
            ...given,
          },
        ];
      }),
    ),
    history: [],
  };
}
