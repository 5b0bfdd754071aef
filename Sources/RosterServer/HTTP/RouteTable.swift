/// The API's paths and the methods each accepts. The router answers what exists; this table
/// lets the envelope middleware tell "no such path" (404) from "not with this method"
/// (405, with `Allow`), which Hummingbird's router does not distinguish.
enum RouteTable {
    static func allowedMethods(forPath path: String) -> [String]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        switch segments.count {
        case 1 where segments[0] == "openapi.json":
            return ["GET"]
        case 3 where segments[0] == "api" && segments[1] == "v1":
            switch segments[2] {
            case "users", "groups": return ["GET", "POST"]
            case "health", "audit": return ["GET"]
            default: return nil
            }
        case 4 where segments[0] == "api" && segments[1] == "v1" && (segments[2] == "users" || segments[2] == "groups"):
            return ["GET", "PUT", "DELETE"]
        case 5 where segments[0] == "api" && segments[1] == "v1" && segments[2] == "groups" && segments[4] == "members":
            return ["GET", "POST"]
        case 6 where segments[0] == "api" && segments[1] == "v1" && segments[2] == "groups" && segments[4] == "members":
            return ["PUT", "DELETE"]
        default:
            return nil
        }
    }
}
