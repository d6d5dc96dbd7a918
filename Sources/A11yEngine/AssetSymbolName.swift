/// Placeholder until the asset-catalog reader lands: the identity mapping.
public enum AssetSymbolName {
    public static func generated(from colorsetName: String) -> String { colorsetName }
}
