"""Drives `mediate mcp` with the official MCP Python SDK's client, as an agent's client would.

Run by .ci/run (which installs the pinned SDK into a virtual environment):

    python check_mcp.py path/to/mediate

Prints one line per check and, last, "N passed, N failed"; exits 1 when any check failed.
Every wait is bounded by a limit only a hang reaches.
"""

import json
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import PaginatedRequestParams

HANG_LIMIT = 120  # seconds: only a hang reaches it

passed = 0
failed = 0


def check(condition, what, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAILED: {what} {detail}")


def text_of(result):
    return "".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def scenario(binary):
    server = StdioServerParameters(command=binary, args=["--in-memory", "mcp"])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            with anyio.fail_after(HANG_LIMIT):
                init = await session.initialize()
            check(init.protocol_version in ("2025-11-25", "2025-06-18"), "initialize negotiates a served version", init.protocol_version)
            check(init.server_info.name == "mediate", "the server names itself", init.server_info.name)

            # Every page of tools/list.
            tools = []
            cursor = None
            while True:
                page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
                tools += page.tools
                cursor = page.next_cursor
                if cursor is None:
                    break
            names = {tool.name for tool in tools}
            expected = {
                "Accounts.logIn", "Accounts.signUp", "Accounts.verifyToken", "Accounts.whoAmI",
                "Echo.checkedEcho", "Echo.delayedEcho", "Echo.echo", "Echo.fail",
                "Notes.create", "Notes.delete", "Notes.export", "Notes.get", "Notes.list", "Notes.update",
            }
            check(expected <= names, "every remote example action is a tool", sorted(expected - names))
            check("Echo.nativeEcho" not in names, "a local-only (native) action is not a tool")
            create = next(tool for tool in tools if tool.name == "Notes.create")
            check(create.input_schema.get("required") == ["token", "title"], "a tool's input schema has the declared required params",
                  json.dumps(create.input_schema))
            check(create.description and "Create a note" in create.description, "a tool's description is the action's summary")
            by_name = {tool.name: tool for tool in tools}
            get_hints = by_name["Notes.get"].annotations
            delete_hints = by_name["Notes.delete"].annotations
            check(get_hints is not None and get_hints.read_only_hint is True and get_hints.idempotent_hint is True,
                  "a read-only action's tool says so in its hints", get_hints)
            check(delete_hints is not None and delete_hints.destructive_hint is True and delete_hints.read_only_hint is False,
                  "a destructive action's tool says so in its hints", delete_hints)

            # A synchronous and an asynchronous action.
            echo = await session.call_tool("Echo.echo", {"greeting": "hello", "count": 3})
            check(not echo.is_error and echo.structured_content == {"greeting": "hello", "count": 3},
                  "a synchronous action answers with structured content", echo.structured_content)
            check(json.loads(text_of(echo)) == {"greeting": "hello", "count": 3}, "the same JSON as text")
            delayed = await session.call_tool("Echo.delayedEcho", {"ms": 10, "a": "b"})
            check(not delayed.is_error and delayed.structured_content == {"a": "b"}, "an async action answers", delayed.structured_content)

            # A session across calls: sign up, log in, create a note with the token, list it.
            signed = await session.call_tool("Accounts.signUp", {"username": "ada", "password": "correct horse"})
            check(not signed.is_error, "sign up", text_of(signed))
            logged = await session.call_tool("Accounts.logIn", {"username": "ada", "password": "correct horse"})
            token = (logged.structured_content or {}).get("result")
            check(not logged.is_error and isinstance(token, str), "log in gives a token", logged.structured_content)
            created = await session.call_tool("Notes.create", {"token": token, "title": "Engines"})
            check(not created.is_error, "create a note with the token", text_of(created))
            listed = await session.call_tool("Notes.list", {})
            check("Engines" in text_of(listed), "the note is listed", text_of(listed))

            # Tool errors the model can read and fix.
            missing = await session.call_tool("Notes.create", {"token": token})
            details = missing.structured_content or {}
            check(missing.is_error and details.get("code") == "invalidParameter" and details.get("parameter") == "title",
                  "a missing required argument is a tool error naming it", details)
            wrong = await session.call_tool("Notes.get", {"id": [1, 2]})
            details = wrong.structured_content or {}
            check(wrong.is_error and details.get("parameter") == "id", "a wrong JSON type is a tool error naming the argument", details)

            # An unknown tool is a protocol error, and the server goes on.
            try:
                await session.call_tool("Notes.nope", {})
                check(False, "an unknown tool is refused")
            except Exception as error:  # the SDK raises its MCPError
                check("Unknown tool" in str(error), "an unknown tool is a JSON-RPC error", str(error))

            # A call the client abandons: the SDK sends notifications/cancelled; the next call
            # still answers at once.
            with anyio.move_on_after(0.5):
                await session.call_tool("Echo.delayedEcho", {"ms": 600000})
                check(False, "the abandoned call did not end early")
            started = time.monotonic()
            with anyio.fail_after(HANG_LIMIT):
                after = await session.call_tool("Echo.echo", {"after": "abandon"})
            check(not after.is_error and after.structured_content == {"after": "abandon"},
                  "after an abandoned call the next one answers", f"{time.monotonic() - started:.2f}s")


def main():
    if len(sys.argv) != 2:
        print("usage: check_mcp.py path/to/mediate", file=sys.stderr)
        return 2
    try:
        anyio.run(scenario, sys.argv[1])
    except Exception as error:  # a check that could not even run counts as failed
        global failed
        failed += 1
        print(f"FAILED: the scenario stopped: {error!r}")
    print(f"agent-client: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
