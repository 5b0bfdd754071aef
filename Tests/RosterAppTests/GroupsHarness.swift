import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// An app over in-memory users and groups that says it has groups: three groups, Sales with
/// Anabel and Juliana in it.
@MainActor
struct GroupsHarness {
    let clock = ManualClock()
    let users: InMemoryDirectory
    let groups: InMemoryDirectory
    let app: AppModel

    init(groupNames: [String] = ["Sales", "Ops", "Finance"], traits: DirectoryTraits = DirectoryTraits(dialect: .roster, hasGroups: true),
         scrollStyle: ScrollStyle = .line) async {
        users = InMemoryDirectory(users: searchDirectory)
        groups = users
        await users.setTraits(traits)
        let made = await groups.insertGroups(named: groupNames)
        if let sales = made.first { await groups.insertMembers(["p-2", "p-3"], into: sales.id) }
        app = AppModel(directory: users, clock: clock, scrollStyle: scrollStyle)
        app.setListViewport(height: 10)
        app.setGroupsViewport(height: 10)
    }

    var view: GroupsViewModel { app.groupsView }

    /// Starts the app, waits for the list and for the traits to say there are groups.
    func started() async {
        app.start()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.hasGroups })
    }

    /// Everything the app has started, including timers that are due on the manual clock.
    func settle(advancing time: Duration = .zero) async {
        if time > .zero { await clock.advance(by: time) }
        await app.activity.waitForLoads()
    }

    /// `Tab` into the groups view and wait for the groups and the first group's members.
    func openGroups() async {
        app.toggleMainView()
        await settle()
    }

    var topPrompt: PromptModel? { if case .prompt(let prompt) = app.topScreen { prompt } else { nil } }
    var topPicker: PickerModel? { if case .picker(let picker) = app.topScreen { picker } else { nil } }
    var topConfirm: ConfirmModel? { if case .confirm(let confirm) = app.topScreen { confirm } else { nil } }
    var topError: ErrorDialog? { if case .error(let dialog) = app.topScreen { dialog } else { nil } }

    func type(_ text: String, into prompt: PromptModel) {
        for character in text { prompt.edit(.insert(String(character))) }
    }

    func type(_ text: String, into picker: PickerModel) {
        for character in text { picker.edit(.insert(String(character))) }
    }
}
