# Raises an uncaught exception: the session outcome carries its traceback.


def parse(value):
    return int(value)  # ValueError for "not-a-number"


def main():
    print("about to fail")
    parse("not-a-number")


main()
