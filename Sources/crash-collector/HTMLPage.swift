/// The frame every collector page shares: one document with its style inline, no script and
/// nothing fetched from elsewhere, so the pages work offline. Narrower than 700 px, tables
/// marked `stack-on-phone` turn each row into a block, so that nothing scrolls sideways.
enum HTMLPage {
    static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · crash-collector</title>
        <style>\(style)</style></head><body>
        <header><a href="/">crash-collector</a></header>
        <main>
        \(body)
        </main></body></html>

        """
    }

    static let style = """
        *{box-sizing:border-box}
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;background:#f6f6f8;line-height:1.4}
        header{background:#2b2540;padding:.6em 1em}header a{color:#fff;text-decoration:none;font-weight:600}
        main{max-width:1100px;margin:0 auto;padding:.8em}
        h1{font-size:1.3em;margin:.3em 0;overflow-wrap:anywhere}h2{font-size:1.1em;margin:1.4em 0 .5em}
        a{color:#4e3fb4}
        table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #ddd}
        th,td{padding:.35em .5em;text-align:left;vertical-align:top;border-bottom:1px solid #eee}
        th{font-size:.8em;color:#555;font-weight:600}
        td{overflow-wrap:anywhere}
        code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;overflow-wrap:anywhere}
        .muted{color:#666;font-size:.85em}
        .kind{display:inline-block;font-size:.7em;padding:0 .4em;border-radius:3px;text-transform:uppercase;vertical-align:middle}
        .kind-crash{background:#fde2e1;color:#8a1c14}.kind-hang{background:#fff0c2;color:#6b4c00}
        .kind-snapshot{background:#e2ecfd;color:#123a80}
        .group-title{font-weight:600}
        .message{background:#fff;border-left:4px solid #c0392b;padding:.5em .8em;overflow-wrap:anywhere;white-space:pre-wrap}
        form.filter{display:flex;flex-wrap:wrap;gap:.5em;align-items:end;margin:.5em 0}
        form.filter label{font-size:.85em}
        svg.chart{display:block}svg.chart .bar{fill:#6c5fc7}svg.chart .track{fill:#ecebf3}
        tr.in-app{background:#efeafd}tr.in-app .fn{font-weight:600;color:#2d1f8f}
        tr.marker td{color:#666;font-style:italic}
        .repeat{display:inline-block;font-size:.75em;background:#ffe8c7;border-radius:3px;padding:0 .35em}
        .async{display:inline-block;font-size:.75em;background:#dff3e4;border-radius:3px;padding:0 .35em}
        .thunk{display:inline-block;font-size:.75em;background:#ecebf3;border-radius:3px;padding:0 .35em}
        table.stack td.index,table.stack th:first-child{white-space:nowrap;overflow-wrap:normal;width:1%}
        ol.timeline{list-style:none;padding:0;margin:0;background:#fff;border:1px solid #ddd}
        ol.timeline li{padding:.3em .5em;border-bottom:1px solid #eee;overflow-wrap:anywhere}
        ol.timeline .t{font-family:ui-monospace,Menlo,monospace;font-size:.85em;color:#555;display:inline-block;min-width:6em}
        ol.timeline li.crash{background:#fde2e1;font-weight:600}
        details{margin:.4em 0}summary{cursor:pointer}
        @media (max-width:700px){
        table.stack-on-phone thead{display:none}
        table.stack-on-phone tr{display:block;border-bottom:1px solid #ddd;padding:.3em 0}
        table.stack-on-phone td{display:block;border:0;padding:.1em .5em}
        table.stack-on-phone td[data-label]::before{content:attr(data-label) ": ";color:#666;font-size:.85em}
        }
        """

    /// `crash`, `snapshot` or `hang` as a small label.
    static func kindBadge(_ kind: String) -> String {
        "<span class=\"kind kind-\(escape(kind))\">\(escape(kind))</span>"
    }

    /// `2026-11-29T13:20:05.123Z` as `2026-11-29 13:20:05 UTC`.
    static func time(_ iso: String) -> String {
        guard iso.count >= 19 else { return escape(iso) }
        return escape(String(iso.prefix(19)).replacingOccurrencesOfT()) + " UTC"
    }

    /// Text made safe for HTML element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}

extension String {
    fileprivate func replacingOccurrencesOfT() -> String { String(map { $0 == "T" ? " " : $0 }) }
}
