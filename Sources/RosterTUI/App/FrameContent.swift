import RosterApp

/// Everything one frame shows, derived from the models and nothing else: the views draw it
/// without reading a model. Deriving it apart from drawing lets the main loop draw and send a
/// frame first and register the frame's reads with Observation after the bytes are out
/// (AppController.render).
struct FrameContent: Equatable {
    /// The base layer: the list or the groups, the detail pane, the header and the hints.
    struct Base: Equatable {
        var size: Size
        var header: HeaderContent
        /// The users view's list, or nil when the groups view is up (and `groups` is set).
        var list: ListContent?
        var groups: GroupsContent?
        var detail: DetailContent?
        var detailSpinner: String?
        var status: StatusContent
        var hints: [Hint]
    }

    /// A screen stacked on the base layer, bottom first.
    enum Layer: Equatable {
        case help([HelpSection])
        case dialog(DialogContent)
        case form(FormContent)
        case choice(ChoiceContent)
        case bulkSummary(SummaryContent)
        case importer(ImportContent)
        case picker(PickerContent)
        case recentChanges(RecentChangesContent)
    }

    var size: Size
    /// Nil when the terminal is too small for any layout.
    var layout: ScreenLayout?
    var base: Base?
    /// True when nothing is stacked on the base layer.
    var baseOnTop = true
    var layers: [Layer] = []
    /// The connection picker, above every connection's screens.
    var connectionPicker: PickerContent?
}
