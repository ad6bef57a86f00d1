# raises.py: a program that raises an uncaught exception two calls deep,
# for the MCP outcome/traceback tests.


def parse(value):
    return int(value)


def load(values):
    return [parse(v) for v in values]


print("loading")
load(["1", "2", "three"])
