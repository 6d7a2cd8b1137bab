/** The package version, written into manifests and provenance so a result names the tool that made it. */
export const version = '0.1.0';
