/// "1 regression", "2 regressions", "0 errors": counts in human output agree with their number.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
