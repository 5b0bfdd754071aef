"""Runs PyPI's scim2-server (a SCIM 2.0 server nobody on this project wrote) for Roster's
interoperability tests, taking every scim2-server option, and prints the port it bound
(`SCIM_PORT=<port>`) once it listens, so tests can ask for port 0.

Usage: python scim2_server_port0.py --port 0 --bearer-token TOKEN [scim2-server options]
"""
import sys

from scim2_server.testserver import cli

_make_server = cli.make_server


def _make_server_and_say_where(host, port, app, **options):
    server = _make_server(host, port, app, **options)
    print(f"SCIM_PORT={server.server_port}", flush=True)
    return server


cli.make_server = _make_server_and_say_where

if __name__ == "__main__":
    sys.argv[0] = "scim2-server"
    cli.main()
