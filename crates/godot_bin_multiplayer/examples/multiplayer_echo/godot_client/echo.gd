extends Node
# The node at /root/Echo. Its RPC list must match the server's exactly:
# echo, echo_many, echo_unreliable (sorted names give the method ids 0, 1, 2).

signal answered(method: String, args: Array)

# On a server (server.gd) each call is answered on the caller with the same arguments.

@rpc("any_peer", "reliable")
func echo(value):
	if multiplayer.is_server():
		echo.rpc_id(multiplayer.get_remote_sender_id(), value)
	answered.emit("echo", [value])

@rpc("any_peer", "reliable")
func echo_many(a, b, c):
	if multiplayer.is_server():
		echo_many.rpc_id(multiplayer.get_remote_sender_id(), a, b, c)
	answered.emit("echo_many", [a, b, c])

@rpc("any_peer", "call_remote", "unreliable_ordered", 1)
func echo_unreliable(value):
	if multiplayer.is_server():
		echo_unreliable.rpc_id(multiplayer.get_remote_sender_id(), value)
	answered.emit("echo_unreliable", [value])
