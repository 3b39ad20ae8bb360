from tests.fakes.telegram import X


def test_x():
    import sys
    print(sys.modules["tests"])
    assert X == 1
