# asyncio: asyncio.run of a coroutine, gather ordering, sleep(0), tasks, async generators and async with.
import asyncio


async def square(x):
    await asyncio.sleep(0)
    return x * x


async def agen(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i


class Conn:
    async def __aenter__(self):
        print("connect")
        return self

    async def __aexit__(self, *exc):
        print("disconnect")


async def main():
    results = await asyncio.gather(*(square(i) for i in range(5)))
    print(results)
    task = asyncio.create_task(square(7))
    print(await task)
    print([i async for i in agen(3)])
    async with Conn() as c:
        print("using", type(c).__name__)
    return "main done"


print(asyncio.run(main()))
