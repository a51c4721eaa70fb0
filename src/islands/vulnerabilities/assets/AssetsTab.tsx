interface Props {
  readonly spaceId: string;
  readonly canManage: boolean;
  /** The asset whose page is open, or null for the list. */
  readonly asset: string | null;
  readonly onOpenAsset: (assetId: string | null) => void;
  /** Opens the findings tab filtered to this asset. */
  readonly onShowFindings: (assetId: string) => void;
}

/** The space's assets and one asset's page (being built; replaced before this lands). */
export function AssetsTab(_props: Props) {
  return <p className="muted">Assets</p>;
}
