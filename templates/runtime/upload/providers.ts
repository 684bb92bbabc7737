/**
 * Upload providers other than local, by the name `upload.config.provider` gives them (Strapi
 * v4 installs one as `@strapi/provider-upload-<name>`). A provider module registers itself
 * when it is imported, and adds its options to `UploadProviderOptions`; an emitted server
 * carries and imports only the providers its build includes (src/server.ts), so a server
 * that stores files locally has neither another provider's code nor its npm packages.
 */
import type { UploadProvider } from './provider-local.js';

/**
 * `upload.config` keys of each registered provider, by name (`{ providerOptions?, actionOptions? }`):
 * empty here, each provider module adds its entry (declaration merging), so src/config.ts
 * accepts exactly the providers the server was built with.
 */
export interface UploadProviderOptions {}

export interface UploadProviderFactory<Settings = unknown> {
  /** Checks `providerOptions` and `actionOptions` at start; throws naming the wrong key under `at`. */
  resolve(providerOptions: unknown, actionOptions: unknown, at: string): Settings;
  create(settings: Settings): UploadProvider;
}

const factories = new Map<string, UploadProviderFactory>();

export function registerUploadProvider<Settings>(name: string, factory: UploadProviderFactory<Settings>): void {
  factories.set(name, factory as UploadProviderFactory);
}

/** The provider registered under `name`; an error saying what to do when this server has none. */
export function uploadProviderFactory(name: string, at: string): UploadProviderFactory {
  const factory = factories.get(name);
  if (factory) return factory;
  const names = ['local', ...factories.keys()].map((n) => `'${n}'`).join(', ');
  throw new Error(
    `${at}.provider ${JSON.stringify(name)} is not built into this server (it has ${names}). ` +
      `contentgen builds a provider in when src/config.ts selects it (or the Strapi project installs @strapi/provider-upload-${name}): ` +
      'run `contentgen build` again, then `npm install` (docs/rest.md, "Files")',
  );
}
