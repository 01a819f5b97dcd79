/**
 * The demo websites and demo registry on loopback, with the configuration that points the enrichment engine at
 * them: what the pipeline's integration tests share to enrich real (generated) sites without internet.
 */
import { parseEnv, type Env } from '#app/.server/env.server.ts'
import { startDemoRegistry, type DemoRegistry } from '#server/demo/registry.ts'
import { startDemoWebsites, type DemoWebsites } from '#server/demo/websites.ts'

export interface DemoServices {
  sites: DemoWebsites
  registry: DemoRegistry
  /** DEMO_WEBSITES_URL, REGISTRY_URL and the crawler's allow-list for both. */
  env: Env
  stop(): Promise<void>
}

export async function startDemoServices({ latencyMs }: { latencyMs: number }): Promise<DemoServices> {
  const sites = await startDemoWebsites({ latencyMs })
  const registry = await startDemoRegistry()
  const env = parseEnv({ DEMO_WEBSITES_URL: sites.url, REGISTRY_URL: registry.url, ENRICH_ALLOW_HOSTS: `${new URL(sites.url).host},${new URL(registry.url).host}` })
  return {
    sites,
    registry,
    env,
    stop: async () => {
      await registry.stop()
      await sites.stop()
    },
  }
}
