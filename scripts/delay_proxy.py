#!/usr/bin/env python3
"""A TCP proxy that delays every byte by DELAY_MS each way: a slow link for `make bench`.

Usage: delay_proxy.py TARGET_HOST:TARGET_PORT [DELAY_MS]   (50 by default: 100 ms round trip)

Listens on 127.0.0.1 on a free port and prints "listening on PORT" once it does. The client's
connect returns at once (the kernel accepts it), so what it sends first waits a round trip
more, the handshake it did not pay for; then each chunk read on either side is written to the other DELAY_MS after it was
read, in order. Bandwidth is not limited: the bench's pages are small.
"""

import asyncio
import sys


async def pipe(reader, writer, delay):
    """Copies reader to writer, each chunk delay seconds after it arrived."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if data is None:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    delivering = asyncio.create_task(deliver())
    try:
        while True:
            data = await reader.read(65536)
            queue.put_nowait((loop.time() + delay, data or None))
            if not data:
                break
        await delivering
    except (ConnectionError, asyncio.CancelledError):
        delivering.cancel()


async def serve(target_host, target_port, delay):
    async def handle(client_reader, client_writer):
        # The handshake's round trip: the client's connect has returned already (the kernel
        # answered it), so its first bytes wait for it instead.
        try:
            await asyncio.sleep(2 * delay)
            server_reader, server_writer = await asyncio.open_connection(target_host, target_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, server_writer, delay), pipe(server_reader, client_writer, delay),
                             return_exceptions=True)
        for writer in (client_writer, server_writer):
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(f"listening on {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


def main():
    if len(sys.argv) not in (2, 3) or ":" not in sys.argv[1]:
        raise SystemExit(__doc__)
    host, port = sys.argv[1].rsplit(":", 1)
    delay = (float(sys.argv[2]) if len(sys.argv) == 3 else 50.0) / 1000
    try:
        asyncio.run(serve(host, int(port), delay))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
