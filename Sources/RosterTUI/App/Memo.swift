/// The last value made from an input, made again only when the input changes: the detail
/// pane's lines for the user it shows, the list's hint bar for what it depends on. Holding j
/// changes neither (UserDetailModel waits for the selection to rest), so most frames reuse the
/// last value instead of formatting timestamps, SCIM fields or hints once more.
@MainActor
final class Memo<Input: Equatable, Output> {
    private var last: (input: Input, output: Output)?

    func value(for input: Input, make: (Input) -> Output) -> Output {
        if let last, last.input == input { return last.output }
        let output = make(input)
        last = (input, output)
        return output
    }
}
