import CLDAP

/// OpenLDAP's libldap, which Roster loads only for an LDAP directory (Sources/CLDAP/libldap.c).
public enum LDAPLibrary {
    /// Starts loading libldap and GnuTLS on a thread of their own, so that about 2 ms of an
    /// LDAP start overlap the runtime's start and the settings (docs/benchmarks.md). Loading
    /// twice costs nothing: the first `ldap_initialize` waits for the load under way.
    public static func preload() { roster_ldap_preload() }

    /// Whether the command line or `ROSTER_SERVER` names an ldap:// or ldaps:// server, read
    /// before anything is parsed: a reason to start loading early, never a decision (a wrong
    /// guess only loads a library).
    public static func isNamed(inArguments arguments: [String], serverVariable: String?) -> Bool {
        let candidates = arguments.lazy.map { $0.hasPrefix("--server=") ? String($0.dropFirst("--server=".count)) : $0 }
        return candidates.contains(where: isLDAPURLText) || serverVariable.map(isLDAPURLText) == true
    }

    private static func isLDAPURLText(_ text: String) -> Bool {
        let lowered = text.prefix(8).lowercased()
        return lowered.hasPrefix("ldap://") || lowered.hasPrefix("ldaps://")
    }
}
