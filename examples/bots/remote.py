#!/usr/bin/env python3
"""Play any protocol bot (a command speaking JSON lines) as a bot account, over the server's WebSocket.

    python3 examples/bots/remote.py http://localhost:8000 BOT_TOKEN python3 examples/bots/bot.py

The token is the bot account's (POST /api/account/bot). Each message from the server goes to the bot's
standard input as a line, each line of its output back to the server, until either side stops. It needs
the websockets package (pip install websockets).
"""

import asyncio
import json
import sys

from websockets.asyncio.client import connect


async def bridge(base, token, command):
    """Relay the socket's messages and the bot's lines both ways until one side ends."""
    bot = await asyncio.create_subprocess_exec(*command, stdin=asyncio.subprocess.PIPE,
                                               stdout=asyncio.subprocess.PIPE)
    async with connect(base.replace("http", "ws", 1).rstrip("/") + "/api/bots/live") as ws:
        await ws.send(json.dumps({"token": token}))

        async def down():
            async for text in ws:
                bot.stdin.write(text.encode() + b"\n")
                await bot.stdin.drain()

        async def up():
            while line := await bot.stdout.readline():
                await ws.send(line.decode().strip())

        relays = [asyncio.create_task(down()), asyncio.create_task(up())]
        await asyncio.wait(relays, return_when=asyncio.FIRST_COMPLETED)
        for relay in relays:
            relay.cancel()
    bot.kill()
    await bot.wait()


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    asyncio.run(bridge(sys.argv[1], sys.argv[2], sys.argv[3:]))
