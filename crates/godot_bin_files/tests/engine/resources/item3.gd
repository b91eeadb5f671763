# The script of the serde engine test's resource (tests/engine/resources/serde.rs), Godot 3.
extends Resource

export var name = ""
export var hp = 0
export var speed = 0.0
export var pos = Vector2()
export var tags = PoolStringArray()
export var inventory = []
export var stats = {}
export var child: Resource
