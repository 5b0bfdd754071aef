/// Where `y` puts text. The terminal front end writes it with OSC 52; the models only say what.
@MainActor
public protocol Clipboard: AnyObject {
    func copy(_ text: String)
}
