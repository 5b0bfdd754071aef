import Foundation
import RosterKit
import RosterKitTestSupport

/// Shorthands for the scripted transports the tests use most.
enum ScriptedTransportHolder {
    static func ok(_ body: String, status: Int = 200) -> ScriptedTransport {
        ScriptedTransport(.respond(.text(body, status: status)))
    }

    static func status(_ status: Int, body: String = "", headers: HTTPHeaders = [:], contentType: String = "application/json") -> ScriptedTransport {
        ScriptedTransport(.respond(.text(body, status: status, contentType: contentType, headers: headers)))
    }
}
