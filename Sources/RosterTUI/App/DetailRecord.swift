import Foundation
import RosterKit

extension DetailContent {
    /// The pane's lines for `user`: timestamps to the minute, then the groups of a Roster user
    /// or what a SCIM service sent beyond Roster's fields, then the profile attributes set.
    init(user: User, isRefreshing: Bool = false, problem: String? = nil) {
        var fields: [Field] = []
        // A SCIM user's groups come with the SCIM fields below.
        if user.scim == nil, !user.groups.isEmpty {
            fields.append(Field(label: "Groups", value: user.groups.map(\.name).joined(separator: ", ")))
        }
        let directoryFields = (user.scim?.fields ?? []).filter { !($0.label == "Display" && $0.value == user.name) }
        for field in directoryFields where field.label != "Version" {
            fields.append(Field(label: field.label, value: field.value))
        }
        // The profile attributes, on every dialect that has them; the version (dim) last.
        for attribute in UserAttribute.allCases {
            if let value = user.attributes[attribute] { fields.append(Field(label: attribute.shortLabel, value: value)) }
        }
        for field in directoryFields where field.label == "Version" {
            fields.append(Field(label: field.label, value: field.value, isDim: true))
        }
        self.init(user: UserRowContent(user), id: user.id, created: Self.timestamp(user.createdAt),
                  updated: Self.timestamp(user.updatedAt), fields: fields, isRefreshing: isRefreshing, problem: problem)
    }

    /// "2025-11-21 09:30 UTC".
    static func timestamp(_ date: Date) -> String {
        let iso = ISO8601Timestamp.format(date)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }
}
