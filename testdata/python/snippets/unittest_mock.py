# unittest.mock: Mock return values and call records, side_effect, patch as context manager and decorator, MagicMock dunders.
from unittest import mock
import os

m = mock.Mock(return_value=42)
print(m(1, k=2), m.call_count, m.call_args, m.called)
m.assert_called_once_with(1, k=2)
m.method.return_value = "x"
print(m.method("a"), m.method.call_args_list)
s = mock.Mock(side_effect=[1, ValueError("boom")])
print(s())
try:
    s()
except ValueError as e:
    print("side effect raised", e)
with mock.patch("os.getcwd", return_value="/fake"):
    print(os.getcwd())
print(os.getcwd() != "/fake")


@mock.patch.dict(os.environ, {"FLUIDC_MOCKED": "yes"})
def read_env():
    return os.environ.get("FLUIDC_MOCKED")


print(read_env(), os.environ.get("FLUIDC_MOCKED"))
mm = mock.MagicMock()
mm.__len__.return_value = 3
print(len(mm), isinstance(mm, mock.MagicMock), mock.sentinel.token is mock.sentinel.token)
