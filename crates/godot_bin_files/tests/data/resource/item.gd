# The script of item.tres / item.res (make_resources4.gd).
extends Resource

@export var name: String
@export var hp: int
@export var weight: float
@export var pos: Vector2
@export var tags: PackedStringArray
@export var icon: Resource
@export var curve: Curve
@export var parts: Array[Resource]
