# Makes the ConfigFile fixtures of tests/it/resource_config.rs with Godot 3.2.3:
#   godot3-server --no-window -s make_config3.gd
# run in this folder; it writes godot3/*.cfg.
extends SceneTree

func _init():
	var c = ConfigFile.new()
	c.set_value("", "version", 3)
	c.set_value("player", "name", "Ada \"the\" Great\nof Lovelace")
	c.set_value("player", "hp", 100)
	c.set_value("player", "speed", 2.5)
	c.set_value("player", "pos", Vector3(1.5, -2, 0.1))
	c.set_value("player", "inventory", PoolStringArray(["sword", "shield"]))
	c.set_value("player", "stats", {"str": 10, "dex": 12.5, "luck": [1, 2, 3]})
	c.set_value("player", "home", NodePath("/root/World/House:position"))
	c.set_value("world", "seed", 1234567890123)
	c.set_value("world", "gravity", Vector2(0, 9.8))
	c.set_value("world", "tint", Color(0.1, 0.2, 0.3, 0.5))
	c.set_value("world", "rot", Quat(0, 0, 0, 1))
	c.set_value("world", "bytes", PoolByteArray([0, 1, 254, 255]))
	c.set_value("world", "xform", Transform(Basis(), Vector3(1, 2, 3)))
	c.set_value("world", "nothing", null)
	c.set_value("world", "empty", {})
	c.set_value("world", "obj", Reference.new())
	c.set_value("world", "after_obj", true)
	c.save("res://godot3/game.cfg")
	c.save_encrypted_pass("res://godot3/game_pass.cfg", "s3cret")
	quit()
