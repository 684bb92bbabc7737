/** Which responsive formats an image gets, and the dimensions sharp gives them. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultBreakpoints } from '../../../../templates/runtime/upload/config.js';
import { fitInside, formatEntry, planFormats, thumbnailBox } from '../../../../templates/runtime/upload/formats.js';

const keys = (width: number, height: number, breakpoints = defaultBreakpoints) => planFormats({ width, height }, breakpoints).map((f) => f.key);

describe('planFormats', () => {
  it('makes the thumbnail, then every breakpoint the image is larger than, in config order', () => {
    expect(keys(2000, 1500)).toEqual(['thumbnail', 'large', 'medium', 'small']);
    expect(keys(800, 600)).toEqual(['thumbnail', 'medium', 'small']);
    expect(keys(600, 400)).toEqual(['thumbnail', 'small']);
    expect(keys(1000, 1001)).toEqual(['thumbnail', 'large', 'medium', 'small']);
  });

  it('needs the image strictly larger than a breakpoint, on either side', () => {
    expect(keys(500, 500)).toEqual(['thumbnail']);
    expect(keys(501, 10)).toEqual(['thumbnail', 'small']);
    expect(keys(10, 501)).toEqual(['thumbnail', 'small']);
    expect(keys(1000, 1000)).toEqual(['thumbnail', 'medium', 'small']);
  });

  it('makes a thumbnail only for images wider than 245 or taller than 156', () => {
    expect(keys(245, 156)).toEqual([]);
    expect(keys(246, 10)).toEqual(['thumbnail']);
    expect(keys(10, 157)).toEqual(['thumbnail']);
    expect(keys(1, 1)).toEqual([]);
  });

  it('uses the configured breakpoints, and none when responsive formats are off', () => {
    expect(keys(3000, 100, { xlarge: 2000, tiny: 64 })).toEqual(['thumbnail', 'xlarge', 'tiny']);
    expect(keys(3000, 100, {})).toEqual(['thumbnail']);
  });

  it('boxes: 245×156 for the thumbnail, a square of the breakpoint otherwise', () => {
    expect(planFormats({ width: 2000, height: 1500 }, defaultBreakpoints).map((f) => f.box)).toEqual([
      thumbnailBox,
      { width: 1000, height: 1000 },
      { width: 750, height: 750 },
      { width: 500, height: 500 },
    ]);
  });
});

describe('fitInside', () => {
  it('scales the side that needs the larger reduction to the box', () => {
    expect(fitInside({ width: 2000, height: 1500 }, { width: 1000, height: 1000 })).toEqual({ width: 1000, height: 750 });
    expect(fitInside({ width: 2000, height: 1500 }, thumbnailBox)).toEqual({ width: 208, height: 156 });
    expect(fitInside({ width: 300, height: 2000 }, { width: 500, height: 500 })).toEqual({ width: 75, height: 500 });
    expect(fitInside({ width: 100, height: 100 }, thumbnailBox)).toEqual({ width: 100, height: 100 });
  });

  it('matches what sharp produces', async () => {
    const cases: Array<[number, number]> = [[2000, 1500], [1234, 567], [300, 2000], [246, 100], [3, 1000], [1001, 999], [777, 777]];
    const boxes = [thumbnailBox, { width: 1000, height: 1000 }, { width: 750, height: 750 }, { width: 500, height: 500 }];
    for (const [width, height] of cases) {
      const image = await sharp({ create: { width, height, channels: 3, background: '#336699' } }).png().toBuffer();
      for (const box of boxes) {
        const { info } = await sharp(image).resize({ ...box, fit: 'inside', withoutEnlargement: true }).png().toBuffer({ resolveWithObject: true });
        expect({ width: info.width, height: info.height }, `${width}×${height} in ${box.width}×${box.height}`).toEqual(fitInside({ width, height }, box));
      }
    }
  });
});

describe('formatEntry', () => {
  it("has Strapi's keys in Strapi's order, names and hashes prefixed by the format", () => {
    const entry = formatEntry('small', { name: 'cat.png', hash: 'cat_0123456789', ext: '.png', mime: 'image/png' }, { width: 500, height: 375, sizeInBytes: 12345, url: '/uploads/small_cat_0123456789.png' });
    expect(entry).toEqual({
      name: 'small_cat.png',
      hash: 'small_cat_0123456789',
      ext: '.png',
      mime: 'image/png',
      path: null,
      width: 500,
      height: 375,
      size: 12.35,
      sizeInBytes: 12345,
      url: '/uploads/small_cat_0123456789.png',
    });
    expect(Object.keys(entry)).toEqual(['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url']);
  });
});
