# The script of the serde engine test's resource (tests/engine/resources/serde.rs).
extends Resource

@export var name: String
@export var hp: int
@export var speed: float
@export var pos: Vector2
@export var tags: PackedStringArray
@export var inventory: Array[String]
@export var stats: Dictionary
@export var child: Resource
