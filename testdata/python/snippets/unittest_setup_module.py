# unittest fixtures order: setUpModule/tearDownModule, setUpClass/tearDownClass, setUp/tearDown, addCleanup; run on stdout with verbosity 2.
import sys
import unittest

events = []


def setUpModule():
    events.append("setUpModule")


def tearDownModule():
    events.append("tearDownModule")


class Fixtures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        events.append("setUpClass")

    @classmethod
    def tearDownClass(cls):
        events.append("tearDownClass")

    def setUp(self):
        events.append("setUp " + self._testMethodName)
        self.addCleanup(events.append, "cleanup " + self._testMethodName)

    def tearDown(self):
        events.append("tearDown " + self._testMethodName)

    def test_a(self):
        events.append("test_a")

    def test_b(self):
        events.append("test_b")
        self.fail("b fails")


suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
print("\n".join(events))
print(result.testsRun, len(result.failures))
