/// A bar chart as inline SVG: one bar per bucket, each as tall as its count against the
/// largest count of the chart, with its count and time in a tooltip (`<title>`). Every bar
/// carries `data-count`, which the browser test reads.
enum ActivityChart {
    static func svg(counts: [Int], window: ActivityWindow, barWidth: Int = 4, height: Int = 28, label: String) -> String
    {
        let gap = 1
        let width = counts.count * (barWidth + gap) - gap
        let largest = max(counts.max() ?? 0, 1)
        var svg = "<svg class=\"chart\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
        svg += " role=\"img\" aria-label=\"\(HTMLPage.escape(label))\" data-height=\"\(height)\">"
        for (index, count) in counts.enumerated() {
            let x = index * (barWidth + gap)
            // Exact heights (no minimum), so that bars compare as their counts do.
            let barHeight = Double(count) * Double(height) / Double(largest)
            let y = Double(height) - barHeight
            svg += "<g><title>\(HTMLPage.escape(window.label(index))): \(count)</title>"
            svg += "<rect class=\"track\" x=\"\(x)\" y=\"0\" width=\"\(barWidth)\" height=\"\(height)\"/>"
            svg += "<rect class=\"bar\" data-count=\"\(count)\" x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\""
            svg += " height=\"\(barHeight)\"/></g>"
        }
        return svg + "</svg>"
    }
}
