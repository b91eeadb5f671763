extends Node
## A Godot 4 client for examples/game_server.rs.
##
## Add it to a scene (or see main.gd), call connect_to_server(), then listen to its
## signals and call send_state(), say(), whisper() and emote(). Every message is one
## put_var() / get_var() value: the server's Rust enums arrive as one-entry
## Dictionaries such as {"Welcome": {"id": 1, "players": [...]}}, and unit variants
## such as "Wave" as bare Strings.

signal welcomed(id: int, players: Array)
signal player_joined(id: int, player_name: String)
signal player_left(id: int)
signal snapshot_received(tick: int, players: Array)
signal chat_received(from_id: int, from_name: String, chat: Variant)
signal server_error(message: String)
signal disconnected

const PROTOCOL_VERSION := 1

var peer := StreamPeerTCP.new()
var player_name := ""
var my_id := -1
var _logged_in := false


## Starts connecting; the login is sent as soon as the connection is up.
func connect_to_server(host: String, port: int, who: String) -> Error:
	player_name = who
	return peer.connect_to_host(host, port)


## Sends this player's position and velocity (the server clamps the speed).
func send_state(position: Vector2, velocity: Vector2) -> void:
	if my_id >= 0:
		peer.put_var({"State": {"position": position, "velocity": velocity}})


## A chat line for everyone.
func say(text: String) -> void:
	peer.put_var({"Chat": {"Say": text}})


## A chat line for one player, by id.
func whisper(to: int, text: String) -> void:
	peer.put_var({"Chat": {"Whisper": {"to": to, "text": text}}})


## "Wave" or "Dance": unit enum variants travel as bare Strings.
func emote(which: String) -> void:
	peer.put_var({"Chat": which})


func _process(_delta: float) -> void:
	peer.poll()
	var status := peer.get_status()
	if status == StreamPeerTCP.STATUS_NONE or status == StreamPeerTCP.STATUS_CONNECTING:
		return
	if status != StreamPeerTCP.STATUS_CONNECTED:
		set_process(false)
		disconnected.emit()
		return
	if not _logged_in:
		_logged_in = true
		peer.put_var({"Login": {"name": player_name, "version": PROTOCOL_VERSION}})
	# get_var() blocks until a whole value has arrived: call it only when bytes wait.
	while peer.get_available_bytes() > 0:
		_dispatch(peer.get_var())


func _dispatch(msg: Variant) -> void:
	if typeof(msg) != TYPE_DICTIONARY or msg.size() != 1:
		push_warning("unexpected message: %s" % [msg])
		return
	var kind: String = msg.keys()[0]
	var body: Variant = msg[kind]
	match kind:
		"Welcome":
			my_id = body["id"]
			welcomed.emit(my_id, body["players"])
		"Joined":
			player_joined.emit(body["id"], body["name"])
		"Left":
			player_left.emit(body["id"])
		"Snapshot":
			snapshot_received.emit(body["tick"], body["players"])
		"Chat":
			chat_received.emit(body["from"], body["name"], body["chat"])
		"Error":
			server_error.emit(body)
		_:
			push_warning("unknown message: %s" % [msg])
