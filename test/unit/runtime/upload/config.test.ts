/** Upload settings: defaults, overrides, and clear failures for wrong values. */
import { describe, expect, it } from 'vitest';
import { defaultUploadConfig, resolveUploadConfig } from '../../../../templates/runtime/upload/config.js';

describe('resolveUploadConfig', () => {
  it('has the documented defaults', () => {
    expect(resolveUploadConfig()).toEqual(defaultUploadConfig);
    expect(defaultUploadConfig).toMatchObject({
      sizeLimit: 200 * 1024 * 1024,
      maxFiles: 20,
      breakpoints: { large: 1000, medium: 750, small: 500 },
      responsiveDimensions: true,
      sizeOptimization: true,
      autoOrientation: false,
      maxImagePixels: 50_000_000,
      imageConcurrency: 2,
      maxAge: 60,
    });
  });

  it('overrides keys given, ignoring undefined ones', () => {
    const config = resolveUploadConfig({ sizeLimit: 1000, breakpoints: { big: 800 }, maxAge: undefined });
    expect(config.sizeLimit).toBe(1000);
    expect(config.breakpoints).toEqual({ big: 800 });
    expect(config.maxAge).toBe(60);
  });

  it("takes the local provider's options Strapi 4.26.2 honours: providerOptions.sizeLimit, localServer.maxage (ms) (Kewey/AdHumanMobility)", () => {
    const config = resolveUploadConfig({ config: { sizeLimit: 5, providerOptions: { sizeLimit: 100 * 1024 * 1024, localServer: { maxage: 300000 } } } });
    expect(config).toMatchObject({ sizeLimit: 100 * 1024 * 1024, maxAge: 300, provider: { name: 'local' } });
    expect(resolveUploadConfig({ config: { maxAge: 10, providerOptions: { localServer: { maxage: 300000 } } } }).maxAge).toBe(10);
  });

  it('refuses wrong values, naming the key', () => {
    expect(() => resolveUploadConfig({ sizeLimit: 0 })).toThrow('upload config sizeLimit must be a positive integer, got 0');
    expect(() => resolveUploadConfig({ maxFiles: 1.5 })).toThrow('maxFiles');
    expect(() => resolveUploadConfig({ maxAge: -1 })).toThrow('maxAge');
    expect(() => resolveUploadConfig({ breakpoints: { thumbnail: 100 } })).toThrow('"thumbnail"');
    expect(() => resolveUploadConfig({ breakpoints: { 'x/y': 100 } })).toThrow('letters and digits');
    expect(() => resolveUploadConfig({ breakpoints: { big: -5 } })).toThrow('breakpoints.big');
    expect(() => resolveUploadConfig({ sizeOptimization: 'yes' as never })).toThrow('sizeOptimization');
    expect(() => resolveUploadConfig({ maxImagePixels: 0 })).toThrow('upload config maxImagePixels must be a positive integer, got 0');
    expect(() => resolveUploadConfig({ config: { imageConcurrency: 0.5 } })).toThrow('imageConcurrency');
  });
});
