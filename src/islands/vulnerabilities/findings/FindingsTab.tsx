interface Props {
  readonly spaceId: string;
  readonly canTriage: boolean;
  readonly canManage: boolean;
  readonly filters: Record<string, string>;
  readonly onFilters: (filters: Record<string, string>) => void;
  readonly onOpenAsset: (assetId: string) => void;
}

/** The space's findings: trend, filters, triage, virtual patches (being built; replaced before this lands). */
export function FindingsTab(_props: Props) {
  return <p className="muted">Findings</p>;
}
