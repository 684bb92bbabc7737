/**
 * npm packages the upload plugin needs in an emitted server's package.json, by name; the
 * generator pins each to the version contentgen's own package.json has. None of them has
 * an install script (sharp >= 0.33 ships its native code as prebuilt @img/* packages), so
 * `allowScripts` needs no entry for them.
 */
export const uploadPackages = {
  // The type packages too: a one-step production install compiles on the host (README, "Production").
  dependencies: ['@aws-sdk/client-s3', 'busboy', 'mime-types', 'sharp', '@types/busboy', '@types/mime-types'],
  devDependencies: [],
} as const;
