/// Which pages the list needs and which it may forget. Pure arithmetic on row numbers: the
/// cost of a keypress follows the size of the screen, never the size of the directory.
struct PageWindow: Sendable, Equatable {
    enum Direction: Sendable { case up, down }

    /// Rows per page, as requested from the server.
    let perPage: Int

    /// The 1-based page holding `row` (0-based).
    func page(ofRow row: Int) -> Int {
        row / perPage + 1
    }

    /// The 0-based rows of `page`.
    func rows(ofPage page: Int) -> Range<Int> {
        (page - 1) * perPage ..< page * perPage
    }

    /// The pages covering `rows`, in order; empty for empty rows.
    func pages(covering rows: Range<Int>) -> ClosedRange<Int>? {
        guard !rows.isEmpty else { return nil }
        return page(ofRow: rows.lowerBound)...page(ofRow: rows.upperBound - 1)
    }

    /// The pages to hold for a viewport of `height` rows starting at `offset` in a list of
    /// `total` rows: the visible ones first, then one screen ahead in the direction of travel,
    /// so the next page is asked for before the selection reaches its edge. Going up from the
    /// top or down from the bottom fetches nothing more.
    func wantedPages(offset: Int, height: Int, total: Int, direction: Direction) -> [Int] {
        let height = max(1, height)
        let visibleEnd = min(total, offset + height)
        guard offset < visibleEnd else { return [] }
        var pages = Array(self.pages(covering: offset..<visibleEnd) ?? 1...0)
        let ahead: Range<Int> = switch direction {
        case .down: visibleEnd ..< min(total, visibleEnd + height)
        case .up: max(0, offset - height) ..< offset
        }
        if let more = self.pages(covering: ahead) {
            pages += more.filter { !pages.contains($0) }
        }
        return pages
    }

    /// The cached pages to forget so that at most `limit` remain: never a wanted page, and the
    /// farthest from `center` first. Costs O(cached pages), which the limit bounds.
    static func evictions(cached: some Collection<Int>, wanted: Set<Int>, center: Int, limit: Int) -> [Int] {
        let excess = cached.count - limit
        guard excess > 0 else { return [] }
        return cached.filter { !wanted.contains($0) }
            .sorted { abs($0 - center) > abs($1 - center) }
            .prefix(excess)
            .map { $0 }
    }
}
