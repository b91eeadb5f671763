# The script of godot3/item.tres / item.res (make_resources3.gd).
extends Resource

export var name = ""
export var hp = 0
export var weight = 0.0
export var pos = Vector2()
export var tags = PoolStringArray()
export var icon: Resource
export var curve: Curve
export var parts = []
