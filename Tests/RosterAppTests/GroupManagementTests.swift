import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// Making, renaming and deleting groups, and changing who is in them, from the groups view and
/// from the user list.
@Suite("Group management", .timeLimit(.minutes(5)))
@MainActor
struct GroupManagementTests {
    // MARK: Groups

    @Test func nGroupAsksForANameCreatesItAndSelectsIt() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.newGroup()
        let prompt = try #require(harness.topPrompt)
        prompt.submit()
        #expect(prompt.fieldError != nil, "an empty name is refused before anything is sent")
        harness.type("  Night Shift ", into: prompt)
        #expect(prompt.fieldError == nil, "typing clears the problem")
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.app.statusMessage?.text == "Created Night Shift")
        #expect(harness.view.groups.selected?.name == "Night Shift")
        #expect(harness.view.groups.total == 4)
    }

    @Test func aTakenNameShowsUnderTheFieldAndKeepsWhatWasTyped() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.newGroup()
        let prompt = try #require(harness.topPrompt)
        harness.type("sales", into: prompt)
        harness.app.confirm()
        await harness.settle()
        #expect(harness.topPrompt === prompt)
        #expect(prompt.fieldError == "This name is already taken.")
        #expect(prompt.field.text == "sales")
        #expect(prompt.phase == .editing)
    }

    @Test func aFailedCreateGoesToTheErrorDialogAndItsRetrySendsTheSameKey() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.newGroup()
        let prompt = try #require(harness.topPrompt)
        harness.type("Support", into: prompt)
        await harness.groups.failNext(.createGroup, with: unavailable)
        harness.app.confirm()
        await harness.settle()
        #expect(harness.topError?.title == "Could not create the group")
        harness.app.retry()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        let keys = await harness.groups.idempotencyKeys
        #expect(keys.count == 2)
        #expect(keys[0] == keys[1], "a retry of one action carries its key")
        #expect(harness.view.groups.items.contains { $0.name == "Support" })
    }

    @Test func eRenamesTheSelectedGroupAndItsMembersShowTheNewName() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.moveInGroups(.bottom) // Sales
        harness.app.renameSelectedGroup()
        let prompt = try #require(harness.topPrompt)
        #expect(prompt.field.text == "Sales")
        prompt.edit(.deleteToStart)
        harness.type("Sales EMEA", into: prompt)
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.view.groups.selected?.name == "Sales EMEA")
        #expect(await harness.users.storedUser(id: "p-2")?.groups.map(\.name) == ["Sales EMEA"])
    }

    @Test func dAsksThenDeletesTheGroupAndItsMembersStayUsers() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.moveInGroups(.bottom) // Sales, two members
        harness.app.deleteSelectedGroup()
        let confirm = try #require(harness.topConfirm)
        #expect(confirm.message.contains("Its 2 members stay users."))
        harness.app.close()
        #expect(await harness.groups.callCount(.deleteGroup) == 0, "n keeps it")
        harness.app.deleteSelectedGroup()
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.view.groups.items.map(\.name) == ["Finance", "Ops"])
        #expect(await harness.users.storedUser(id: "p-2")?.groups == [])
        #expect(await harness.users.count == searchDirectory.count)
    }

    // MARK: Members, from the groups view

    @Test func aAddsAUserFoundByNameToTheSelectedGroup() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.moveInGroups(.down) // Ops
        await harness.settle(advancing: UserDetailModel.settleDelay)
        harness.app.addMemberToSelectedGroup()
        let picker = try #require(harness.topPicker)
        await harness.settle()
        #expect(picker.choices.value?.count == min(searchDirectory.count, PickerModel.limit))
        harness.type("dan", into: picker)
        await harness.settle(advancing: UserListModel.searchDebounce)
        #expect(picker.choices.value?.map(\.title) == ["Daniel Kim"])
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.app.statusMessage?.text == "Added Daniel Kim to Ops")
        #expect(harness.view.groups.selected?.memberCount == 1)
        #expect(harness.view.members.items.map(\.name) == ["Daniel Kim"])
        #expect(await harness.users.storedUser(id: "p-4")?.groups.map(\.name) == ["Ops"])
    }

    @Test func aFailedAddStaysInThePickerAndEnterTriesAgain() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.addMemberToSelectedGroup()
        let picker = try #require(harness.topPicker)
        await harness.settle()
        await harness.groups.failNext(.changeMembers, with: unavailable)
        harness.app.confirm()
        await harness.settle()
        guard case .failed(let choice, _) = picker.phase else {
            Issue.record("the failure shows in the picker, not \(picker.phase)")
            return
        }
        #expect(harness.app.canRetry)
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.view.members.items.map(\.id) == [choice.id])
    }

    @Test func dOnAMemberAsksThenTakesThemOutOfTheGroup() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.openGroups()
        harness.app.moveInGroups(.bottom) // Sales
        await harness.settle(advancing: UserDetailModel.settleDelay)
        harness.app.moveInGroups(.members)
        harness.app.removeSelectedMember()
        let confirm = try #require(harness.topConfirm)
        #expect(confirm.message.contains("Anabel Ruiz"))
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.app.statusMessage?.text == "Removed Anabel Ruiz from Sales")
        #expect(harness.view.members.items.map(\.name) == ["Juliana Costa"])
        #expect(harness.view.groups.selected?.memberCount == 1)
        #expect(await harness.users.storedUser(id: "p-2")?.groups == [])
    }

    // MARK: From the user list

    @Test func plusAddsTheSelectedUserToAGroupAndTheDetailPaneShowsIt() async throws {
        let harness = await GroupsHarness()
        await harness.started()
        await harness.settle(advancing: UserDetailModel.settleDelay)
        #expect(harness.app.list.selectedUser?.name == "Ana Silva")
        harness.app.addSelectedUserToGroup()
        let picker = try #require(harness.topPicker)
        await harness.settle()
        #expect(picker.choices.value?.map(\.title) == ["Finance", "Ops", "Sales"])
        for character in "sal" { picker.edit(.insert(String(character))) }
        await harness.settle(advancing: .seconds(1))
        #expect(picker.choices.value?.map(\.title) == ["Sales"])
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.screens == [.list])
        #expect(harness.app.statusMessage?.text == "Added Ana Silva to Sales")
        #expect(harness.app.detail.user?.groups.map(\.name) == ["Sales"])

        harness.app.removeSelectedUserFromGroup()
        let remove = try #require(harness.topPicker)
        await harness.settle()
        #expect(remove.choices.value?.map(\.title) == ["Sales"])
        harness.app.confirm()
        await harness.settle()
        #expect(harness.app.statusMessage?.text == "Removed Ana Silva from Sales")
        #expect(harness.app.detail.user?.groups == [])
    }

    @Test func minusOnAUserInNoGroupSaysSo() async {
        let harness = await GroupsHarness()
        await harness.started()
        harness.app.removeSelectedUserFromGroup()
        #expect(harness.app.screens == [.list])
        #expect(harness.app.statusMessage?.text == "Ana Silva is in no group")
    }
}
