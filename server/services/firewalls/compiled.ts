/** The two things a version needs from the compiler's side: the installed CRS, and the compiled files with their hash. */
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import { ApiError } from '../../errors.ts';
import { compileFirewall, UnsafeValueError } from './compile/index.ts';
import { type CrsCatalog, loadCrsCatalog } from './engine/crs-catalog.ts';

/** The installed CRS (read once; `CRS_DIR` or Debian's folder). */
export async function installedCrs(): Promise<CrsCatalog> {
  return loadCrsCatalog();
}

/** The files a version's settings compile to, and their hash (the connector's ETag); 400 for a value the compiler refuses. */
export async function compileSettings(
  firewallId: string,
  settings: FirewallSettings,
  now: Date,
): Promise<{ files: Record<string, string>; hash: string }> {
  try {
    return compileFirewall({ firewallId, settings, catalog: loadCrsCatalog(), now });
  } catch (error) {
    if (error instanceof UnsafeValueError) throw new ApiError(400, 'unsafe_value', error.message);
    throw error;
  }
}
