"""``cancel_and_wait``: a task stopped without losing the caller's own cancellation."""

from __future__ import annotations

import asyncio

import pytest

from controller.closing import cancel_and_wait


def test_a_cancelled_caller_stays_cancelled() -> None:
    """``suppress(CancelledError): await task`` swallowed the caller's Ctrl-C too."""
    after: list[str] = []

    async def main() -> None:
        started, stopping = asyncio.Event(), asyncio.Event()

        async def stubborn() -> None:  # takes a while to stop, as a closing link does
            started.set()
            try:
                await asyncio.Event().wait()
            finally:
                stopping.set()
                await asyncio.shield(asyncio.sleep(0.05))

        async def clean_up(task: asyncio.Task[None]) -> None:
            await cancel_and_wait(task)
            after.append("carried on")

        task = asyncio.create_task(stubborn())
        await started.wait()
        cleaner = asyncio.create_task(clean_up(task))
        await stopping.wait()
        cleaner.cancel()  # the Ctrl-C, during the clean-up
        with pytest.raises(asyncio.CancelledError):
            await cleaner

    asyncio.run(main())
    assert after == []


def test_what_the_task_raised_is_raised() -> None:
    async def main() -> None:
        async def broken() -> None:
            raise OSError("the port is gone")

        task = asyncio.create_task(broken())
        await asyncio.sleep(0)
        with pytest.raises(OSError, match="the port is gone"):
            await cancel_and_wait(task)

    asyncio.run(main())
