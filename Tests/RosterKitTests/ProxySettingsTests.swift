import Foundation
import RosterKit
import Testing

@Suite("Proxies from the environment")
struct ProxySettingsTests {
    let proxy = ProxySettings.Proxy(host: "proxy.example", port: 3128)

    @Test func httpsAndHttpEachUseTheirOwnVariable() throws {
        let settings = try ProxySettings.from(environment: ["HTTPS_PROXY": "http://proxy.example:3128", "HTTP_PROXY": "plain.example:8080"])
        #expect(settings.proxy(for: URL(string: "https://users.example.com/")!) == proxy)
        #expect(settings.proxy(for: URL(string: "http://users.example.com/")!) == ProxySettings.Proxy(host: "plain.example", port: 8080))
    }

    @Test func lowerCaseWinsAsInCurl() throws {
        let settings = try ProxySettings.from(environment: ["HTTPS_PROXY": "http://upper:1", "https_proxy": "http://lower:2"])
        #expect(settings.https?.host == "lower")
    }

    @Test func noProxyMatchesHostsDomainsPortsAndStar() throws {
        let settings = try ProxySettings.from(environment: [
            "HTTPS_PROXY": "http://proxy.example:3128", "NO_PROXY": "internal.example, .corp.example,api.test:8443",
        ])
        #expect(settings.proxy(for: URL(string: "https://internal.example/")!) == nil)
        #expect(settings.proxy(for: URL(string: "https://a.internal.example/")!) == nil, "a name is also its subdomains")
        #expect(settings.proxy(for: URL(string: "https://x.corp.example/")!) == nil)
        #expect(settings.proxy(for: URL(string: "https://notinternal.example/")!) == proxy)
        #expect(settings.proxy(for: URL(string: "https://api.test:8443/")!) == nil)
        #expect(settings.proxy(for: URL(string: "https://api.test:9443/")!) == proxy, "host:port bypasses that port only")
        let everyone = try ProxySettings.from(environment: ["HTTPS_PROXY": "http://p:1", "NO_PROXY": "*"])
        #expect(everyone.proxy(for: URL(string: "https://anything.example/")!) == nil)
    }

    @Test func loopbackNeverGoesThroughTheProxy() throws {
        let settings = try ProxySettings.from(environment: ["HTTP_PROXY": "http://proxy.example:3128", "HTTPS_PROXY": "http://proxy.example:3128"])
        for url in ["http://127.0.0.1:8080/", "http://localhost/", "http://[::1]:9/", "https://127.0.0.2/"] {
            #expect(settings.proxy(for: URL(string: url)!) == nil, "\(url)")
        }
    }

    @Test func credentialsAreReadButNeverShown() throws {
        let settings = try ProxySettings.from(environment: ["HTTPS_PROXY": "http://me:p%40ss@proxy.example:3128"])
        #expect(settings.https?.username == "me")
        #expect(settings.https?.password == "p@ss")
        #expect(settings.https?.summary == "proxy.example:3128")
    }

    @Test func aBadProxyIsAnError() {
        #expect(throws: APIError.self) { try ProxySettings.from(environment: ["HTTPS_PROXY": "socks5://p:1"]) }
        #expect(throws: APIError.self) { try ProxySettings.from(environment: ["HTTPS_PROXY": "http://"]) }
    }
}
