"""The generated part against the server's document: every operation has its method, and every
method a test in test_operations.py that calls it (so each operation is called once)."""

import unittest

import lastro
import test_operations
from support import OPENAPI, method_name, spec


class Generated(unittest.TestCase):
    def setUp(self):
        if not OPENAPI:
            self.skipTest("set LASTRO_OPENAPI (clients/python/test.sh)")

    def json_operations(self):
        for item in spec()["paths"].values():
            op = item.get("get")
            if op and "application/json" in op["responses"]["200"].get("content", {}):
                yield op["operationId"]

    def test_every_operation_has_a_method(self):
        self.assertEqual(sorted(self.json_operations()), list(lastro.OPERATIONS))
        for operation_id in lastro.OPERATIONS:
            self.assertTrue(callable(getattr(lastro.Client, method_name(operation_id), None)), operation_id)

    def test_every_v1_operation_is_generated(self):
        v1 = {item["get"]["operationId"] for path, item in spec()["paths"].items() if path.startswith("/v1/")}
        self.assertLessEqual(v1, set(lastro.OPERATIONS))

    def test_every_method_has_a_test(self):
        tested = {
            name
            for case in vars(test_operations).values()
            if isinstance(case, type) and issubclass(case, unittest.TestCase)
            for name in dir(case)
            if name.startswith("test_")
        }
        missing = [op for op in lastro.OPERATIONS if "test_" + method_name(op) not in tested]
        self.assertEqual(missing, [], "operations no test in test_operations.py calls")


if __name__ == "__main__":
    unittest.main()
