extends Node
# The node at /root/Echo. Its RPC list must match the server's exactly:
# echo, echo_many, echo_unreliable (sorted names give the method ids 0, 1, 2).

signal answered(method: String, args: Array)

@rpc("any_peer", "reliable")
func echo(value):
	answered.emit("echo", [value])

@rpc("any_peer", "reliable")
func echo_many(a, b, c):
	answered.emit("echo_many", [a, b, c])

@rpc("any_peer", "call_remote", "unreliable_ordered", 1)
func echo_unreliable(value):
	answered.emit("echo_unreliable", [value])
