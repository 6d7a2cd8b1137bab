/**
 * The package version, written into manifests and provenance so a result names the tool that made it.
 *
 * @example
 * console.log(version); // '0.1.0'
 */
export const version = '0.1.0';
