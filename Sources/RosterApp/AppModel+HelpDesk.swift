import RosterKit

/// The help desk's two actions, where the directory's traits allow them: `P` resets the
/// password of the marked users (or the selected one), typed twice on the line with echo off;
/// `L` unlocks accounts locked by failed logins. Both are bulk runs (AppModel+Bulk), so one
/// user or a thousand go the same way, with progress, Esc and a summary.
///
/// The password lives only in the line being typed and in the run's action: it is never drawn,
/// never in a status line, a log line (`PasswordReset` hides itself) or a summary.
extension AppModel {
    /// `P`: asks for the new password.
    public func startPasswordReset() {
        guard listIdle else { return }
        guard traits.canResetPassword else {
            showStatus("This directory cannot reset passwords", kind: .warning)
            return
        }
        guard let subject = readyBulkSubject() else { return }
        openLine(LineEditor(.newPassword, label: Self.passwordLabel(for: subject)))
    }

    /// `L`: asks before unlocking.
    public func startUnlock() {
        guard listIdle else { return }
        guard traits.canUnlock else {
            showStatus("This directory cannot unlock accounts", kind: .warning)
            return
        }
        guard readyBulkSubject() != nil else { return }
        askBulk(.unlock)
    }

    /// Ctrl-G on the first password line: a generated password instead of a typed one, for one
    /// user only (docs/ldap.md says why), shown once when the reset has landed.
    public func generatePassword() {
        guard case .newPassword = line?.purpose, let subject = bulkSubject() else { return }
        guard !subject.fromMarks, case .users(let targets) = subject.scope, let user = targets.first?.user else {
            showLineProblem("A password is generated for one user at a time: type one for these.")
            return
        }
        let password = GeneratedPassword.make(avoiding: [user.name, user.email])
        chooseNextLogon(PasswordReset(password: password, mustChange: false, isGenerated: true))
    }

    /// Ctrl-G is offered on the first password line only when one user is the subject.
    public var canGeneratePassword: Bool {
        guard case .newPassword = line?.purpose else { return false }
        return bulkSubject()?.fromMarks == false
    }

    /// Enter on the first password: asks for it again.
    func commitNewPassword(_ editor: LineEditor) {
        guard !editor.text.isEmpty else {
            showLineProblem("Type the new password (it is not shown).")
            return
        }
        line = LineEditor(.newPasswordAgain(PasswordReset(password: editor.text, mustChange: false)), label: " The same password again: ")
    }

    /// Enter on the second: when both agree, the question of the next logon (where the
    /// directory has it), then the confirmation; when they differ, the first line again.
    func commitPasswordAgain(_ editor: LineEditor, first: PasswordReset) {
        guard editor.text == first.password else {
            let label = bulkSubject().map(Self.passwordLabel(for:)) ?? " New password: "
            var again = LineEditor(.newPassword, label: label)
            again.problem = "The two differ: type the new password again."
            line = again
            return
        }
        chooseNextLogon(first)
    }

    /// The question of the next logon (where the directory has it), then the confirmation.
    private func chooseNextLogon(_ first: PasswordReset) {
        line = nil
        guard traits.canRequirePasswordChange else {
            askBulk(.resetPassword(first))
            return
        }
        let options = [ChoiceModel.Option(key: "y", label: "Must change it at the next logon"),
                       ChoiceModel.Option(key: "n", label: first.isGenerated ? "Keep it as generated" : "Keep it as typed")]
        let menu = ChoiceModel(title: "Reset passwords", message: "At the next logon?", options: options)
        menu.onFinish = { [weak self, weak menu] key in
            guard let self, let menu else { return }
            remove(.choice(menu))
            guard let key else { return }
            askBulk(.resetPassword(PasswordReset(password: first.password, mustChange: key == "y", isGenerated: first.isGenerated)))
        }
        push(.choice(menu))
    }

    /// After a generated password has been set: the one time it is on screen, in a dialog that
    /// Esc closes (or `y`, which also copies it). The dialog is the only holder the app keeps
    /// on screen; after it closes, no status line, log or summary has it.
    func showGeneratedPassword(of run: BulkRun) {
        guard case .resetPassword(let reset) = run.action, reset.isGenerated, run.progress.succeeded == 1,
              case .users(let targets) = run.scope, let user = targets.first?.user else { return }
        let options = clipboard == nil ? [] : [ChoiceModel.Option(key: "y", label: "Copy it to the clipboard and close")]
        let message = "New password: \(reset.password)"
        let dialog = ChoiceModel(title: "Shown only now: \(user.name)", message: message, options: options)
        dialog.escapeLabel = "Close"
        dialog.onFinish = { [weak self, weak dialog] key in
            guard let self, let dialog else { return }
            remove(.choice(dialog))
            guard key == "y", let clipboard else { return }
            clipboard.copy(reset.password)
            showStatus("The password is on the clipboard")
        }
        push(.choice(dialog))
    }

    /// Who the action would apply to, or nil with the reason on the status line.
    private func readyBulkSubject() -> BulkSubject? {
        if isBulkRunning {
            showStatus("A bulk run is going: Esc stops it", kind: .warning)
            return nil
        }
        guard let subject = bulkSubject() else {
            showStatus("No user selected", kind: .warning)
            return nil
        }
        return subject
    }

    private static func passwordLabel(for subject: BulkSubject) -> String {
        " New password for \(subject.shortLabel) (not shown): "
    }
}
