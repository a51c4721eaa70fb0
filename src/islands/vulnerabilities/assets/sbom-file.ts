/** An SBOM file chosen in the browser, read as the API takes it: the JSON object and the file's name. */
import { vulnLimits } from '../../../../contract/constants/vulns.ts';

export interface SbomFile {
  readonly sbom: Record<string, unknown>;
  readonly fileName: string;
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The file a form's file input holds, or null when none was chosen (duck-typed: jsdom's File is not the global one). */
export function chosenFile(value: FormDataEntryValue | null): File | null {
  if (value === null || typeof value === 'string' || !value.name) return null;
  return value;
}

/** Reads a file's text (FileReader where `Blob.text` is missing). */
function textOf(file: File): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/** The file's SBOM, or why it cannot be one (too large, not JSON, not an object). */
export async function readSbomFile(file: File): Promise<SbomFile | { problem: string }> {
  if (file.size > vulnLimits.sbomBytes)
    return {
      problem: `${file.name} is ${megabytes(file.size)}; an SBOM may be at most ${megabytes(vulnLimits.sbomBytes)}.`,
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(await textOf(file));
  } catch (error) {
    return {
      problem: `${file.name} is not JSON (${error instanceof Error ? error.message : String(error)}); choose a CycloneDX JSON SBOM.`,
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problem: `${file.name} is not a CycloneDX SBOM: its JSON is not an object.` };
  return { sbom: parsed as Record<string, unknown>, fileName: file.name };
}
