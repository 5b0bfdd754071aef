print("roster: the terminal UI is not built yet; run `swift run roster-server` for the API server.")
