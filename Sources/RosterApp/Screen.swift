/// One layer of what is on screen. The list is always at the bottom; forms, dialogs and help
/// stack on top of it, and keys go to the top one.
public enum Screen {
    case list
    case form(UserFormModel)
    case confirm(ConfirmModel)
    case error(ErrorDialog)
    case help
    /// A menu of one-key choices (the bulk actions, a role).
    case choice(ChoiceModel)
    /// What a bulk run did, with its failures.
    case bulkSummary(BulkRun)
    /// A CSV export running, or how it ended.
    case export(ExportModel)
    /// A CSV import: its preview, its run, its result.
    case importer(ImportModel)
    /// One line to type: a group's name (AppModel+Groups).
    case prompt(PromptModel)
    /// Something to choose by name: a user for a group, a group for a user (AppModel+Groups).
    case picker(PickerModel)
    /// `U`: the recent changes and runs, and undo (AppModel+Journal).
    case recentChanges(RecentChangesModel)
}

/// What the base layer shows under the stacked screens: the users or the groups.
public enum MainView: Sendable, Equatable {
    case users
    case groups
}

extension Screen: Equatable {
    /// Models compare by identity: the same form, not an equal one.
    public static func == (lhs: Screen, rhs: Screen) -> Bool {
        switch (lhs, rhs) {
        case (.list, .list), (.help, .help): true
        case (.form(let a), .form(let b)): a === b
        case (.confirm(let a), .confirm(let b)): a === b
        case (.error(let a), .error(let b)): a.id == b.id
        case (.choice(let a), .choice(let b)): a === b
        case (.bulkSummary(let a), .bulkSummary(let b)): a === b
        case (.export(let a), .export(let b)): a === b
        case (.importer(let a), .importer(let b)): a === b
        case (.prompt(let a), .prompt(let b)): a === b
        case (.picker(let a), .picker(let b)): a === b
        case (.recentChanges(let a), .recentChanges(let b)): a === b
        default: false
        }
    }
}
