import ArgumentParser

/// `--database`, for the server and its `token` and `audit` subcommands alike.
struct DatabaseOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The SQLite database file (created with its folders when missing), or postgres://USER@HOST:PORT/DB for PostgreSQL, where any number of roster-servers can serve one directory. Defaults to $ROSTER_DATABASE, else a SQLite file in the user's data folder.",
        valueName: "path-or-url"))
    var database = RosterServerCommand.defaultDatabase
}
