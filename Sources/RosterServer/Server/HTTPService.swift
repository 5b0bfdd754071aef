import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// Serves `responder` over HTTP: what Hummingbird's `Application.run()` does, with the `Date`
/// header formatted when a response needs it (`HTTPDate`) instead of by `DateCache`'s timer,
/// so a server nobody calls does nothing (the `roster` app embeds one). Otherwise the same
/// steps as Hummingbird 2.28's: a request ID in the logger, the context from the channel, an
/// error no middleware turned into a response becomes a bare 500.
struct HTTPService<Responder: HTTPResponder>: Service
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let responder: Responder
    let server: HTTPServerBuilder
    let address: BindAddress
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void

    func run() async throws {
        let dates = HTTPDate()
        let responder = self.responder
        let logger = self.logger
        let service = try server.buildServer(
            configuration: HummingbirdCore.ServerConfiguration(address: address),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger
        ) { (request, responseWriter: consuming ResponseWriter, channel) in
            var requestLogger = logger
            requestLogger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
            var response = try await withLogger(requestLogger) { requestLogger in
                let context = Responder.Context(source: .init(channel: channel, logger: requestLogger))
                do {
                    return try await responder.respond(to: request, context: context)
                } catch let error as HTTPParserError {
                    throw error
                } catch {
                    requestLogger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
                    return Response(status: .internalServerError, body: .init())
                }
            }
            response.headers[.date] = dates.now()
            do {
                try await responseWriter.write(response: response.head, body: response.body)
            } catch is HTTPParserError {
                // A parser error thrown from here would be answered with a second response; any
                // other error ends the connection instead.
                throw ParseErrorWhileWritingResponse()
            }
        } onServerRunning: {
            await onServerRunning($0)
        }
        try await service.run()
    }

    private struct ParseErrorWhileWritingResponse: Error {}
}
