"""Import stand-in for tensordict.tensorclass; see ../README.md."""

from _unavailable import unavailable

NonTensorData = unavailable("tensordict.tensorclass.NonTensorData")
NonTensorStack = unavailable("tensordict.tensorclass.NonTensorStack")
