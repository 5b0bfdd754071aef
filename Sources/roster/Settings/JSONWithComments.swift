import Foundation

/// Reads JSON that may hold `//` and `/* */` comments (outside strings), so the shipped
/// configuration file can document itself.
enum JSONWithComments {
    static func strip(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var inString = false
        var escaped = false
        var pending: Unicode.Scalar?
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return scalars.next()
        }
        while let scalar = next() {
            if inString {
                output.append(scalar)
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { inString = false }
                continue
            }
            if scalar == "\"" {
                inString = true
                output.append(scalar)
            } else if scalar == "/" {
                let following = next()
                if following == "/" {
                    while let skipped = next(), skipped != "\n" {}
                    output.append("\n")
                } else if following == "*" {
                    var previous: Unicode.Scalar = " "
                    while let skipped = next() {
                        if previous == "*" && skipped == "/" { break }
                        if skipped == "\n" { output.append("\n") }
                        previous = skipped
                    }
                } else {
                    output.append(scalar)
                    pending = following
                }
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }
}
